/**
 * Binding Telegram: the Telegram widget's JS callback (`data-onauth`) hands over the signed
 * fields, which go to GET /api/oauth/telegram/bind by fetch — same site, so the session cookie
 * travels. The server answers a redirect when bound and `{success:false, message}` otherwise,
 * so the redirect is not followed: it is the success.
 */
import { useTranslation } from '../../use-translation';
import { getStoredUser } from '../../auth-provider';
import { buildUrl } from '../../wire/mappings';
import { useApp } from '../../state/feedback-app';
import { useTelegramWidget } from '../account/use-telegram-widget';

/** Sends the widget's fields; resolves on a bind, throws the server's message otherwise. */
export async function bindTelegram(fields: Record<string, string | number>, fallbackError: string): Promise<void> {
  const query = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  const response = await fetch(buildUrl('/api/oauth/telegram/bind', query), {
    credentials: 'same-origin',
    redirect: 'manual',
    headers: { 'New-Api-User': String(getStoredUser()?.id ?? -1) },
  });
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) return;
  const body = (await response.json().catch(() => undefined)) as { success?: boolean; message?: string } | undefined;
  if (body?.success) return;
  throw new Error(body?.message || fallbackError);
}

export function TelegramBind({ botName, onBound }: { botName: string; onBound: () => void }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const box = useTelegramWidget(botName, { callback: 'onTelegramBind', size: 'small' }, (fields) => {
    bindTelegram(fields, t('errors.unknown'))
      .then(() => {
        void message.success(t('auth.oauth.bound'));
        onBound();
      })
      .catch((err: Error) => void message.error(err.message));
  });

  return <div ref={box} data-testid="telegram-bind" />;
}
