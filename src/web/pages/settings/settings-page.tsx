/**
 * /setting (admins; the tab in `?tab=`, operation by default): the settings tabs rendered
 * from schemas/options — one card per schema file, in the current language, the system tab
 * for the super administrator only. The page knows no option key: see src/web/settings.
 */
import { Alert, Card, Space, Spin, Tabs } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from '../../use-translation';
import { Link, useSearchParams } from 'react-router';
import type { SettingsTab } from '../../../shared/options/catalogue';
import { currentLanguage } from '../../i18n';
import { CATALOGUE } from '../../settings/catalogue-source';
import { SettingsSection } from '../../settings/settings-section';
import { buildSettingsModel } from '../../settings/settings-model';
import { useOptionEntries } from '../../settings/use-option-entries';
import { useStoredUser } from '../../state/use-stored-user';
import '../../settings/settings.css';

export function SettingsPage() {
  // useTranslation re-renders the page when the language changes; the model follows it.
  const { t } = useTranslation();
  const role = useStoredUser()?.role ?? 0;
  const lang = currentLanguage();
  const tabs = useMemo(() => buildSettingsModel(CATALOGUE.sections, { lang, role }), [lang, role]);
  const [params, setParams] = useSearchParams();
  const options = useOptionEntries();
  const wanted = params.get('tab') as SettingsTab | null;
  const active = tabs.find((x) => x.tab === wanted)?.tab ?? tabs[0]?.tab;

  return (
    <Card
      className="sy-settings-page"
      title={t('settings.title')}
      // The console API's reference (admins): not in the navigation, which is the reference console's.
      extra={<Link to="/api-reference">{t('nav.apiReference')}</Link>}
      styles={{ body: { paddingTop: 0 } }}
    >
      {options.error && <Alert type="error" showIcon message={t('settings.refreshFailed')} description={options.error} style={{ marginTop: 16 }} />}
      <Tabs
        activeKey={active}
        onChange={(tab) => setParams({ tab }, { replace: true })}
        data-testid="settings-tabs"
        items={tabs.map(({ tab, sections }) => ({
          key: tab,
          label: t(`settings.tabs.${tab}`),
          children: !options.entries ? (
            !options.error && <Spin style={{ display: 'block', padding: 48 }} />
          ) : (
            <Space direction="vertical" size={16} style={{ width: '100%' }}>
              {sections.map((section) => (
                <SettingsSection key={`${section.id}:${options.version}:${lang}`} section={section} entries={options.entries!} onSaved={options.recordSaved} reload={options.reload} />
              ))}
            </Space>
          ),
        }))}
      />
    </Card>
  );
}
