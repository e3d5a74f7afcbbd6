/**
 * The key of the user's first enabled token (docs/console.md#chat-links: up to 100 tokens, p=0, size=100,
 * enabled only). Without one the user is told so and sent to the token page after 1.5 s.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useNavigate } from 'react-router';
import type { Page } from '../../../shared/api/envelope';
import { api } from '../../state/wire';
import { useApp } from '../../state/feedback-app';

export const NO_TOKEN_REDIRECT_MS = 1500;

interface TokenRow {
  key: string;
  status: number;
}

export function useEnabledTokenKey(enabled: boolean): string | undefined {
  const { t } = useTranslation();
  const { message } = useApp();
  const navigate = useNavigate();
  const [key, setKey] = useState<string | undefined>();

  useEffect(() => {
    if (!enabled) return;
    let timer: number | undefined;
    let cancelled = false;
    api
      .request<Page<TokenRow>>('get', '/api/token/', { query: { p: 0, size: 100 } })
      .then((page) => {
        if (cancelled) return;
        const token = (page.items ?? []).find((row) => row.status === 1);
        if (token) return setKey(token.key);
        void message.error(t('chat.messages.noToken'));
        timer = window.setTimeout(() => navigate('/token'), NO_TOKEN_REDIRECT_MS);
      })
      .catch((err: Error) => void message.error(err.message));
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [enabled, message, navigate, t]);

  return key;
}
