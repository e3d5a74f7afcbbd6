/** Loads one public content text (`/api/home_page_content`, `/api/about`). */
import { useEffect, useState } from 'react';
import { api } from '../state/wire';
import { useApp } from '../state/feedback-app';

export function useContent(path: string): { content: string; loading: boolean } {
  const { message } = useApp();
  const [state, setState] = useState({ content: '', loading: true });
  useEffect(() => {
    let cancelled = false;
    api
      .request<string>('get', path)
      .then((content) => !cancelled && setState({ content: typeof content === 'string' ? content : '', loading: false }))
      .catch((err: Error) => {
        if (cancelled) return;
        setState({ content: '', loading: false });
        void message.error(err.message);
      });
    return () => {
      cancelled = true;
    };
  }, [path, message]);
  return state;
}
