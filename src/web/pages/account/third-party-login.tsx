/**
 * The third-party sign-in buttons, only for providers the status enables: their code (the
 * buttons, their icons, Telegram's widget, the divider) loads only then, as most sites
 * enable none and the sign-in page need not carry it. Each calls the endpoints of
 * docs/accounts.md#third-party-login; a server that refuses shows its own message.
 */
import { lazy, Suspense } from 'react';
import { usePublicStatus } from '../../state/status-context';
import { enabledProviders } from './oauth';

const ThirdPartyButtons = lazy(async () => ({ default: (await import('./third-party-buttons')).ThirdPartyButtons }));

export function ThirdPartyLogin({ aff }: { aff: string }) {
  const providers = enabledProviders(usePublicStatus());
  if (providers.oauth.length === 0 && !providers.wechat && !providers.telegram) return null;
  return (
    <Suspense fallback={null}>
      <ThirdPartyButtons aff={aff} providers={providers} />
    </Suspense>
  );
}
