/**
 * The `SettingsSection` component renders one section of the model, whatever its schema
 * file: its fields through the one RJSF form (or its registered sub-tabs), a save button
 * that sends only the changed keys, and the section's registered actions.
 */
import { SaveOutlined } from '@ant-design/icons';
import { Button, Card, Divider, Tabs, Typography } from 'antd';
import { Fragment } from 'react';
import { useTranslation } from '../use-translation';
import { SECTION_ACTIONS } from './actions';
import type { OptionEntry } from './form-values';
import { SUB_TABS } from './ratios';
import { SectionForm } from './section-form';
import type { SectionModel } from './settings-model';
import { useSectionForm } from './use-section-form';

interface SettingsSectionProps {
  section: SectionModel;
  entries: Map<string, OptionEntry>;
  onSaved: (rows: OptionEntry[]) => void;
  reload: () => void;
}

export function SettingsSection({ section, entries, onSaved, reload }: SettingsSectionProps) {
  const { t } = useTranslation();
  const form = useSectionForm(section, entries, onSaved);
  const subTabs = section.subTabs.filter((name) => SUB_TABS[name]);
  const actions = section.actions.filter((name) => SECTION_ACTIONS[name]);
  const editable = section.fields.length > 0;

  return (
    <Card title={section.title} className="sy-settings-section" data-testid={`section-${section.id}`}>
      {section.description && <Typography.Paragraph type="secondary">{section.description}</Typography.Paragraph>}
      {subTabs.length > 0 ? (
        <Tabs
          size="small"
          items={subTabs.map((name) => {
            const View = SUB_TABS[name].view;
            return { key: name, label: t(SUB_TABS[name].labelKey), children: <View section={section} form={form} reload={reload} /> };
          })}
        />
      ) : (
        editable && <SectionForm section={section} form={form} />
      )}
      {editable && (
        <Button type="primary" icon={<SaveOutlined />} loading={form.saving} onClick={() => void form.save()} data-testid={`save-${section.id}`}>
          {t('settings.save', { section: section.title })}
        </Button>
      )}
      {actions.map((name) => {
        const Action = SECTION_ACTIONS[name];
        return (
          <Fragment key={name}>
            <Divider />
            <Action />
          </Fragment>
        );
      })}
    </Card>
  );
}
