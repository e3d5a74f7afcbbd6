/** Chinese / English, kept locally under `language`. */
import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGES } from '../i18n';

const NAMES: Record<(typeof LANGUAGES)[number], string> = { zh: '中文', en: 'English' };

export function LanguageMenu() {
  const { t } = useTranslation();
  const active = currentLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [active],
        items: LANGUAGES.map((lang) => ({ key: lang, label: NAMES[lang] })),
        onClick: ({ key }) => void changeLanguage(key as (typeof LANGUAGES)[number]),
      }}
    >
      <Button type="text" icon={<TranslationOutlined />} aria-label={t('header.language')} data-testid="language-menu" />
    </Dropdown>
  );
}
