/**
 * The console's root box and `useApp()` (message, notification, modal) as antd's `App` gives
 * them, with the three APIs' code loaded on their first call: antd's App module brings Modal,
 * the toast stacks and their styles (a sixth of the sign-in page's scripts) though nothing
 * shows until something happens. Every call goes through stand-ins that load the code and
 * then make it on the real APIs, so what a call returns is not its close handle (no caller
 * uses one).
 * antd's own `App.useApp()` reads the same context, so both give the same APIs.
 */
import AppContext, { type useAppProps } from 'antd/es/app/context';
import useStyle from 'antd/es/app/style';
import { ConfigContext } from 'antd/es/config-provider';
import { lazy, Suspense, useCallback, useContext, useState, type ReactNode } from 'react';

const FeedbackHolders = lazy(() => import('./feedback-holders'));

type Apis = useAppProps;

/** Every method of the three APIs (antd 5's MessageInstance, NotificationInstance, modal HookAPI). */
const METHODS: { [G in keyof Apis]: (keyof Apis[G] & string)[] } = {
  message: ['info', 'success', 'error', 'warning', 'loading', 'open', 'destroy'],
  notification: ['success', 'error', 'info', 'warning', 'open', 'destroy'],
  modal: ['info', 'success', 'error', 'warning', 'confirm'],
};

type AnyMethod = (...args: unknown[]) => unknown;

/** Stand-ins that ask for the code (`load`) and make each call on the real APIs once they are in. */
function standIns(ready: Promise<Apis>, load: () => void): Apis {
  const group = <G extends keyof Apis>(name: G): Apis[G] => {
    const entries = METHODS[name].map((method) => [
      method,
      (...args: unknown[]) => {
        load();
        void ready.then((apis) => (apis[name][method] as AnyMethod)(...args));
      },
    ]);
    // The stand-ins take the same arguments; only their return values differ (see above).
    return Object.fromEntries(entries) as Apis[G];
  };
  return { message: group('message'), notification: group('notification'), modal: group('modal') };
}

export function FeedbackApp({ children }: { children: ReactNode }) {
  const { direction, getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [wrapCSSVar, hashId, cssVarCls] = useStyle(prefixCls);
  const [wanted, setWanted] = useState(false);
  const [early] = useState(() => {
    let resolve!: (apis: Apis) => void;
    const ready = new Promise<Apis>((r) => (resolve = r));
    return { resolve, apis: standIns(ready, () => setWanted(true)) };
  });
  const onReady = useCallback((real: Apis) => early.resolve(real), [early]);
  const className = [hashId, prefixCls, cssVarCls, direction === 'rtl' ? `${prefixCls}-rtl` : ''].filter(Boolean).join(' ');
  return wrapCSSVar(
    // Always the stand-ins, also once the real APIs are in (they forward to them): the value
    // never changes, so an effect that lists `message` among its dependencies does not run
    // again when the code arrives (it did: /chat2link showed its toast twice).
    <AppContext.Provider value={early.apis}>
      <div className={className}>
        <Suspense fallback={null}>{wanted && <FeedbackHolders onReady={onReady} />}</Suspense>
        {children}
      </div>
    </AppContext.Provider>,
  );
}

/** The console's message, notification and modal APIs (antd's `useApp()`). */
export function useApp(): Apis {
  return useContext(AppContext);
}
