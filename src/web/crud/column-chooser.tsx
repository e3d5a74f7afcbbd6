/** Picks the shown columns; the choice is kept under `<resource>-table-columns`. */
import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Space } from 'antd';
import { useLabel } from './use-label';
import type { ColumnDef } from '../../shared/resources/columns';
import { isColumnShown, type ColumnPrefs } from './list-prefs';

interface ColumnChooserProps {
  columns: ColumnDef[];
  prefs: ColumnPrefs;
  onChange: (prefs: ColumnPrefs) => void;
}

export function ColumnChooser({ columns, prefs, onChange }: ColumnChooserProps) {
  const t = useLabel();
  const hideable = columns.filter((c) => c.hideable !== false);
  if (hideable.length === 0) return null;
  const content = (
    <Space direction="vertical" size={4} data-testid="column-chooser">
      {hideable.map((c) => (
        <Checkbox key={c.field} checked={isColumnShown(c, prefs)} onChange={(e) => onChange({ ...prefs, [c.field]: e.target.checked })}>
          {t(c.titleKey)}
        </Checkbox>
      ))}
      <Button size="small" type="link" style={{ padding: 0 }} onClick={() => onChange({})}>
        {t('crud.columns.reset')}
      </Button>
    </Space>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('crud.columns.title')} content={content}>
      <Button icon={<SettingOutlined />}>{t('crud.columns.title')}</Button>
    </Popover>
  );
}
