/** Chinese / English, kept locally under `language`. */
import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from '../use-translation';
import { changeLanguage, currentLanguage, LANGUAGES, type Language } from '../i18n';
import { PopupMenu } from './popup-menu';

const NAMES: Record<Language, string> = { zh: '中文', en: 'English' };

export function LanguageMenu() {
  const { t } = useTranslation();
  const active = currentLanguage();
  return (
    <PopupMenu
      look="dropdown"
      label={t('header.language')}
      items={LANGUAGES.map((lang) => ({ key: lang, label: NAMES[lang], selected: lang === active, lang: lang === 'zh' ? 'zh-CN' : 'en' }))}
      onChoose={(key) => void changeLanguage(key as Language)}
      trigger={(props) => <Button {...props} type="text" icon={<TranslationOutlined />} aria-label={t('header.language')} data-testid="language-menu" />}
    />
  );
}
