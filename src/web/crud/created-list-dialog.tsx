/** The codes a create just generated (redemption codes), with one button to copy them all. */
import { CopyOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../components/use-copy';

export function CreatedListDialog({ items }: { items: string[] }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const text = items.join('\n');
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="created-list">
      <Input.TextArea value={text} readOnly autoSize={{ minRows: 2, maxRows: 10 }} className="sy-mono" />
      <Button icon={<CopyOutlined />} onClick={() => void copy(text)}>
        {t('crud.actions.copyAll')}
      </Button>
    </Space>
  );
}
