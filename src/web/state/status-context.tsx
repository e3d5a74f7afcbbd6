/**
 * Makes the public status available to every screen. The stored copy is used at once (right
 * after hydration when the page was prerendered, which had none); the server's answer
 * replaces it when it arrives (and is stored for the next start).
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useHydrating } from '../prerender/hydration';
import { useTranslation } from '../use-translation';
import { readStoredStatus, storeStatus, type PublicStatus } from './public-status';
import { api } from './wire';
import { useApp } from './feedback-app';

interface StatusState {
  status: PublicStatus;
  /** True once the server answered during this visit. */
  fresh: boolean;
}

const StatusContext = createContext<StatusState>({ status: {}, fresh: false });

export function StatusProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const hydrating = useHydrating();
  const stored = useMemo<StatusState>(() => ({ status: hydrating ? {} : readStoredStatus(), fresh: false }), [hydrating]);
  const [answered, setState] = useState<StatusState | null>(null);
  const state = answered ?? stored;

  useEffect(() => {
    let cancelled = false;
    api
      .request<PublicStatus>('get', '/api/status')
      .then((status) => {
        if (cancelled) return;
        storeStatus(status);
        setState({ status, fresh: true });
      })
      .catch(() => {
        if (!cancelled) void message.error(t('errors.statusLoad'));
      });
    return () => {
      cancelled = true;
    };
  }, [message, t]);

  return <StatusContext.Provider value={state}>{children}</StatusContext.Provider>;
}

export function usePublicStatus(): PublicStatus {
  return useContext(StatusContext).status;
}

export function useStatusFresh(): boolean {
  return useContext(StatusContext).fresh;
}
