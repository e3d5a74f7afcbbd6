/**
 * The `ratio-table` sub-tab: every priced model in the visual table, with adding a model and
 * resetting the ratios to their defaults (POST /api/option/rest_model_ratio). Edits change
 * the section's JSON keys; the section's save sends them.
 */
import { PlusOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { api } from '../../state/wire';
import type { SubTabProps } from './sub-tab-props';
import { AddModelModal } from './add-model-modal';
import { ratioRows } from './ratio-model';
import { RatioGrid } from './ratio-grid';
import { useRatioMaps } from './use-ratio-maps';
import { useApp } from '../../state/feedback-app';

export function RatioTableView({ section, form, reload }: SubTabProps) {
  const { t } = useTranslation();
  const { message } = useApp();
  const { maps, invalid, titles, setMaps } = useRatioMaps(section, form);
  const [adding, setAdding] = useState(false);

  if (!maps) return <Alert type="warning" showIcon message={t('settings.ratio.invalidJson', { title: invalid })} />;

  const reset = async () => {
    try {
      await api.request('post', '/api/option/rest_model_ratio');
      void message.success(t('settings.ratio.resetDone'));
      reload();
    } catch (err) {
      void message.error((err as Error).message);
    }
  };

  const toolbar = (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="add-model">
        {t('settings.ratio.add')}
      </Button>
      <Popconfirm title={t('settings.ratio.resetConfirm')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => reset()}>
        <Button danger icon={<UndoOutlined />}>
          {t('settings.ratio.reset')}
        </Button>
      </Popconfirm>
    </>
  );

  return (
    <>
      <RatioGrid maps={maps} names={ratioRows(maps).map((r) => r.name)} titles={titles} onChange={setMaps} toolbar={toolbar} removable testId="ratio-table" />
      <AddModelModal open={adding} maps={maps} titles={titles} onClose={() => setAdding(false)} onAdd={(next) => setMaps(next)} />
    </>
  );
}
