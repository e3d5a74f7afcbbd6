/**
 * The footer (docs/console.md#footer): the configured HTML footer (sanitised), else a default credit with the
 * version. The stored footer is checked every 200 ms, up to 5 times, until it is there.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from '../use-translation';
import { Link } from 'react-router';
import { PlainText } from '../components/plain-typography';
import { readText, STORAGE_KEYS } from '../storage';
import { DEFAULT_SYSTEM_NAME } from '../state/public-status';
import { usePublicStatus, useStatusFresh } from '../state/status-context';
import { useHydrating } from '../prerender/hydration';

export const FOOTER_RETRY_MS = 200;
export const FOOTER_RETRIES = 5;

function useFooterHtml(): string {
  const fresh = useStatusFresh();
  const [html, setHtml] = useState(() => readText(STORAGE_KEYS.footerHtml) ?? '');
  useEffect(() => {
    let tries = 0;
    let timer: number | undefined;
    const check = () => {
      const value = readText(STORAGE_KEYS.footerHtml) ?? '';
      setHtml(value);
      if (!value && ++tries < FOOTER_RETRIES) timer = window.setTimeout(check, FOOTER_RETRY_MS);
    };
    check();
    return () => window.clearTimeout(timer);
  }, [fresh]);
  return html;
}

/**
 * The footer's HTML once sanitised. The sanitiser (DOMPurify and the Markdown reader) is
 * loaded only when a footer is configured: every screen shows the footer, /login included,
 * and most sites never set one.
 */
function useSafeHtml(html: string): string {
  const [safe, setSafe] = useState('');
  useEffect(() => {
    if (!html) {
      setSafe('');
      return;
    }
    let live = true;
    void import('../components/safe-html').then(({ safeHtml }) => {
      if (live) setSafe(safeHtml(html));
    });
    return () => {
      live = false;
    };
  }, [html]);
  return safe;
}

export function AppFooter() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const html = useFooterHtml();

  const safe = useSafeHtml(html);
  const hydrating = useHydrating();

  // The prerendered page leaves the credit (the site's name) out until the console knows it.
  if (hydrating) return <div className="sy-footer" />;
  if (safe) return <div className="sy-footer sy-footer-custom" dangerouslySetInnerHTML={{ __html: safe }} />;
  return (
    <div className="sy-footer">
      <PlainText type="secondary">
        {t('footer.credit', { name: status.system_name || DEFAULT_SYSTEM_NAME, version: status.version ?? '' })} <Link to="/about">{t('nav.about')}</Link>
        {status.docs_link && (
          <>
            {' · '}
            <a href={status.docs_link} target="_blank" rel="noreferrer">
              {t('nav.docs')}
            </a>
          </>
        )}
      </PlainText>
    </div>
  );
}
