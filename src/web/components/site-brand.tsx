/**
 * The site's logo and name as the public status gives them (defaults otherwise). On the
 * prerendered sign-in page (`prerender/`) they keep their place, unseen, until the console
 * knows the site's own (stored or asked): the build's markup cannot know them, and showing
 * the defaults first would flash another brand.
 */
import { useHydrating } from '../prerender/hydration';
import { DEFAULT_LOGO, DEFAULT_SYSTEM_NAME } from '../state/public-status';
import { usePublicStatus } from '../state/status-context';

const UNSEEN = { visibility: 'hidden' } as const;

export function SiteLogo({ size }: { size: number }) {
  const status = usePublicStatus();
  const hydrating = useHydrating();
  return <img src={hydrating ? undefined : status.logo || DEFAULT_LOGO} alt="" width={size} height={size} style={hydrating ? UNSEEN : undefined} />;
}

/** The name as text; while hydrating, the default name unseen, holding about its width. */
export function SiteName() {
  const status = usePublicStatus();
  const hydrating = useHydrating();
  return hydrating ? <span style={UNSEEN}>{DEFAULT_SYSTEM_NAME}</span> : <>{status.system_name || DEFAULT_SYSTEM_NAME}</>;
}
