/**
 * The `lines` and `list` widgets: a list editor over one text, entries joined by newlines
 * (`lines`) or by the `separator` hint (`list`). An entry is added only when it is non-empty
 * and not there yet; each can be removed.
 */
import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import type { SettingsWidgetProps } from '../form-context';
import { useApp } from '../../state/feedback-app';

/** The entries of a list text: trimmed, blanks dropped. */
export function splitEntries(text: unknown, separator: string): string[] {
  return String(text ?? '')
    .split(separator)
    .map((e) => e.trim())
    .filter(Boolean);
}

function ListEditor({ id, value, disabled, readonly, placeholder, onChange, separator }: SettingsWidgetProps & { separator: string }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const [draft, setDraft] = useState('');
  const entries = splitEntries(value, separator);
  const locked = disabled || readonly;

  const add = () => {
    const entry = draft.trim();
    if (!entry) return;
    if (entries.includes(entry)) {
      void message.warning(t('settings.list.exists'));
      return;
    }
    onChange([...entries, entry].join(separator));
    setDraft('');
  };
  const remove = (entry: string) => onChange(entries.filter((e) => e !== entry).join(separator));

  return (
    <div className="sy-list-editor" data-testid={`list-${id}`}>
      <div className="sy-list-entries">
        {entries.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('settings.list.empty')} />}
        {entries.map((entry) => (
          <Tag key={entry} closable={!locked} onClose={() => remove(entry)} className="sy-list-tag">
            {entry}
          </Tag>
        ))}
      </div>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id={id}
          value={draft}
          disabled={locked}
          placeholder={placeholder ?? t('settings.list.placeholder')}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={(e) => {
            e.preventDefault();
            add();
          }}
        />
        <Button icon={<PlusOutlined />} disabled={locked || !draft.trim()} onClick={add}>
          {t('settings.list.add')}
        </Button>
      </Space.Compact>
    </div>
  );
}

export function LinesWidget(props: SettingsWidgetProps) {
  return <ListEditor {...props} separator={'\n'} />;
}

export function SeparatedListWidget(props: SettingsWidgetProps) {
  return <ListEditor {...props} separator={typeof props.options.separator === 'string' ? props.options.separator : ','} />;
}
