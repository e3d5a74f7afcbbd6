/**
 * What every successful sign-in does (password, WeChat, Telegram, OAuth callback): store
 * the user, say so, warn while root still uses the default password, and land on /token
 * (or the personal page while the tokens screen is not part of this build).
 */
import { useTranslation } from '../../use-translation';
import { useNavigate } from 'react-router';
import { RESOURCE_LIST_PATHS } from '../../../../resources/list-paths';
import { landingAfterLogin, storeUser, type StoredUser } from '../../auth-provider';
import { useApp } from '../../state/feedback-app';

export function useFinishLogin(): (user: StoredUser, target?: string) => void {
  const { t } = useTranslation();
  const { message, modal } = useApp();
  const navigate = useNavigate();
  return (user, target) => {
    storeUser(user);
    void message.success(t('auth.login.success'));
    if (user.default_password) {
      modal.warning({ title: t('auth.defaultPassword.title'), content: t('auth.defaultPassword.content'), centered: true, okText: t('common.ok') });
    }
    navigate(target ?? landingAfterLogin(RESOURCE_LIST_PATHS), { replace: true });
  };
}
