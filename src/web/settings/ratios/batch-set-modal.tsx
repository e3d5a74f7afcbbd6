/**
 * Batch set of the visual ratio table: fills the selected models with one value in one
 * column (single mode) or with a model ratio and a completion ratio together (combined
 * mode), with its three refusals (docs/messages.md#accounts-and-settings).
 */
import { Form, Input, Modal, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import type { RatioColumn } from '../settings-model';
import { batchSet, type BatchInput, type RatioMaps } from './ratio-model';
import { useApp } from '../../state/feedback-app';

interface BatchSetModalProps {
  open: boolean;
  maps: RatioMaps;
  selected: string[];
  titles: Partial<Record<RatioColumn, string>>;
  onClose: () => void;
  onApply: (maps: RatioMaps) => void;
}

export function BatchSetModal({ open, maps, selected, titles, onClose, onApply }: BatchSetModalProps) {
  const { t } = useTranslation();
  const { message } = useApp();
  const [mode, setMode] = useState<BatchInput['mode']>('single');
  const [column, setColumn] = useState<RatioColumn>('ratio');
  const [value, setValue] = useState('');
  const [ratio, setRatio] = useState('');
  const [completionRatio, setCompletionRatio] = useState('');

  const apply = () => {
    const input: BatchInput = mode === 'single' ? { mode, column, value } : { mode, ratio, completionRatio };
    const result = batchSet(maps, selected, input);
    if ('error' in result) {
      void message.error(t(`settings.ratio.errors.${result.error}`));
      return;
    }
    onApply(result.maps);
    void message.success(t('settings.ratio.batchDone', { count: selected.length }));
    onClose();
  };

  const columns = (Object.entries(titles) as Array<[RatioColumn, string]>).map(([c, title]) => ({ value: c, label: title }));
  return (
    <Modal open={open} title={t('settings.ratio.batchTitle')} onOk={apply} onCancel={onClose} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('settings.ratio.selectedCount', { count: selected.length })}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('settings.ratio.batchMode')}>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} data-testid="batch-mode">
            <Radio value="single">{t('settings.ratio.modeSingle')}</Radio>
            <Radio value="combined">{t('settings.ratio.modeCombined')}</Radio>
          </Radio.Group>
        </Form.Item>
        {mode === 'single' ? (
          <>
            <Form.Item label={t('settings.ratio.column')}>
              <Select value={column} onChange={setColumn} options={columns} />
            </Form.Item>
            <Form.Item label={t('settings.ratio.fillValue')}>
              <Input value={value} onChange={(e) => setValue(e.target.value)} data-testid="batch-value" />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item label={titles.ratio}>
              <Input value={ratio} onChange={(e) => setRatio(e.target.value)} data-testid="batch-ratio" />
            </Form.Item>
            <Form.Item label={titles.completionRatio}>
              <Input value={completionRatio} onChange={(e) => setCompletionRatio(e.target.value)} data-testid="batch-completion" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
