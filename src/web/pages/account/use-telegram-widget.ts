/**
 * Telegram's login widget (telegram-widget.js), shared by logging in with Telegram and binding
 * it: the script is put in the returned box and calls `window[callback]` with the fields
 * Telegram signed, which go on to `onAuth` as text (the server checks their hash).
 */
import { type RefObject, useEffect, useRef } from 'react';

type TelegramFields = Record<string, string | number>;

/** The global names the widget calls back (`data-onauth`), one per use so both may be on a page. */
type TelegramCallback = 'onTelegramAuth' | 'onTelegramBind';

declare global {
  interface Window {
    onTelegramAuth?: (user: TelegramFields) => void;
    onTelegramBind?: (user: TelegramFields) => void;
  }
}

/** Built once per bot; `onAuth` is the latest render's when Telegram calls. */
export function useTelegramWidget(
  botName: string,
  options: { callback: TelegramCallback; size: 'small' | 'medium' },
  onAuth: (fields: Record<string, string>) => void,
): RefObject<HTMLDivElement | null> {
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef(onAuth);
  latest.current = onAuth;
  const { callback, size } = options;

  useEffect(() => {
    window[callback] = (fields) => latest.current(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])));
    const script = document.createElement('script');
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.async = true;
    script.dataset.telegramLogin = botName;
    script.dataset.size = size;
    script.dataset.onauth = `${callback}(user)`;
    script.dataset.requestAccess = 'write';
    const holder = box.current;
    holder?.appendChild(script);
    return () => {
      holder?.replaceChildren();
      delete window[callback];
    };
  }, [botName, callback, size]);

  return box;
}
