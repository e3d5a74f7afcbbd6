/**
 * Telegram's login widget. Its answer goes to `GET /api/oauth/telegram/login` with the
 * fields Telegram signed; the server checks the hash.
 */
import { useEffect, useRef } from 'react';
import type { StoredUser } from '../../auth-provider';
import { api } from '../../state/wire';
import { useFinishLogin } from './use-finish-login';
import { useApp } from '../../state/feedback-app';

declare global {
  interface Window {
    onTelegramAuth?: (user: Record<string, string | number>) => void;
  }
}

export function TelegramLogin({ botName }: { botName: string }) {
  const { message } = useApp();
  const finish = useFinishLogin();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    window.onTelegramAuth = (fields) => {
      const query = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
      api
        .request<StoredUser>('get', '/api/oauth/telegram/login', { query })
        .then((user) => finish(user))
        .catch((err: Error) => void message.error(err.message));
    };
    const script = document.createElement('script');
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.async = true;
    script.dataset.telegramLogin = botName;
    script.dataset.size = 'medium';
    script.dataset.onauth = 'onTelegramAuth(user)';
    script.dataset.requestAccess = 'write';
    box.current?.appendChild(script);
    const holder = box.current;
    return () => {
      holder?.replaceChildren();
      delete window.onTelegramAuth;
    };
    // Built once per bot: the callback reads `finish` and `message` of the first render.
  }, [botName]);

  return <div ref={box} />;
}
