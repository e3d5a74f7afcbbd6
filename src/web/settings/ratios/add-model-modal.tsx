/** Adds a model to the visual ratio table; a name already there is refused (模型名称已存在). */
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import type { RatioColumn } from '../settings-model';
import { addModel, isNumberText, type RatioMaps, type RatioRow } from './ratio-model';
import { useApp } from '../../state/feedback-app';

interface AddModelModalProps {
  open: boolean;
  maps: RatioMaps;
  titles: Partial<Record<RatioColumn, string>>;
  onClose: () => void;
  onAdd: (maps: RatioMaps, name: string) => void;
}

const EMPTY: RatioRow = { name: '', price: '', ratio: '', completionRatio: '' };

export function AddModelModal({ open, maps, titles, onClose, onAdd }: AddModelModalProps) {
  const { t } = useTranslation();
  const { message } = useApp();
  const [row, setRow] = useState<RatioRow>(EMPTY);

  const set = (column: RatioColumn, value: string) => {
    if (!isNumberText(value)) {
      void message.warning(t('settings.ratio.numberOnly'));
      return;
    }
    setRow((r) => ({ ...r, [column]: value }));
  };

  const add = () => {
    const result = addModel(maps, row);
    if ('error' in result) {
      void message.error(t(`settings.ratio.errors.${result.error}`));
      return;
    }
    onAdd(result.maps, row.name.trim());
    setRow(EMPTY);
    onClose();
  };

  const fixed = row.price !== '';
  return (
    <Modal open={open} title={t('settings.ratio.addTitle')} onOk={add} onCancel={onClose} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={t('settings.ratio.name')} required>
          <Input value={row.name} onChange={(e) => setRow((r) => ({ ...r, name: e.target.value }))} data-testid="add-model-name" />
        </Form.Item>
        {(Object.entries(titles) as Array<[RatioColumn, string]>).map(([column, title]) => (
          <Form.Item key={column} label={title} extra={column === 'price' ? t('settings.ratio.priceHint') : undefined}>
            <Input value={row[column]} disabled={fixed && column !== 'price'} onChange={(e) => set(column, e.target.value)} data-testid={`add-model-${column}`} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
