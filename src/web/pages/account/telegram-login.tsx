/**
 * Telegram's login widget. Its answer goes to `GET /api/oauth/telegram/login` with the
 * fields Telegram signed; the server checks the hash.
 */
import type { StoredUser } from '../../auth-provider';
import { api } from '../../state/wire';
import { useFinishLogin } from './use-finish-login';
import { useApp } from '../../state/feedback-app';
import { useTelegramWidget } from './use-telegram-widget';

export function TelegramLogin({ botName }: { botName: string }) {
  const { message } = useApp();
  const finish = useFinishLogin();
  const box = useTelegramWidget(botName, { callback: 'onTelegramAuth', size: 'medium' }, (query) => {
    api
      .request<StoredUser>('get', '/api/oauth/telegram/login', { query })
      .then((user) => finish(user))
      .catch((err: Error) => void message.error(err.message));
  });

  return <div ref={box} />;
}
