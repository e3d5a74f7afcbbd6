/** The way back to sign-in under the registration and reset-request forms. */
import { useTranslation } from '../../use-translation';
import { Link } from 'react-router';
import { PlainText } from '../../components/plain-typography';

export function HaveAccountLink() {
  const { t } = useTranslation();
  return (
    <div className="sy-account-links">
      <PlainText type="secondary">
        {t('auth.register.haveAccount')} <Link to="/login">{t('auth.register.loginLink')}</Link>
      </PlainText>
    </div>
  );
}
