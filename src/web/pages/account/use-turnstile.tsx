/**
 * The bot check of a form: the widget when the status turns it on, and a guard that tells
 * the user to wait a few seconds while no token is there yet.
 */
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { TurnstileWidget } from '../../components/turnstile-widget';
import { usePublicStatus } from '../../state/status-context';
import { useApp } from '../../state/feedback-app';

export function useTurnstile() {
  const { t } = useTranslation();
  const { message } = useApp();
  const status = usePublicStatus();
  const [token, setToken] = useState('');
  const enabled = Boolean(status.turnstile_check && status.turnstile_site_key);
  return {
    token,
    widget: enabled ? <TurnstileWidget siteKey={status.turnstile_site_key!} onVerify={setToken} /> : null,
    /** False (after telling the user) while the check is on and has not passed. */
    ready(): boolean {
      if (enabled && !token) {
        void message.info(t('auth.turnstileWait'));
        return false;
      }
      return true;
    },
  };
}
