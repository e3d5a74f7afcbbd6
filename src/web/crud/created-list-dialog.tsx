/**
 * The codes a create just generated (redemption codes), shown once: copied all at once or
 * downloaded as a text file, one code a line (named after what was created, as the reference does).
 */
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useTranslation } from '../use-translation';
import { useCopy } from '../components/use-copy';
import { saveBlob } from '../wire/save-blob';

export function CreatedListDialog({ items, fileName }: { items: string[]; fileName: string }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const text = items.join('\n');
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="created-list">
      <Input.TextArea value={text} readOnly autoSize={{ minRows: 2, maxRows: 10 }} className="sy-mono" />
      <Space wrap>
        <Button icon={<CopyOutlined />} onClick={() => void copy(text)}>
          {t('crud.actions.copyAll')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => saveBlob(new Blob([`${text}\n`], { type: 'text/plain;charset=utf-8' }), fileName)} data-testid="created-list-download">
          {t('crud.actions.downloadTxt')}
        </Button>
      </Space>
    </Space>
  );
}
