/**
 * The `unpriced-models` sub-tab: models of enabled channels (GET /api/channel/models_enabled)
 * with neither a fixed price nor a ratio, in the visual table so they can be priced here.
 * The list is taken once when the view opens, so a model does not vanish while it is edited.
 */
import { Alert, Empty, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { api } from '../../state/wire';
import type { SubTabProps } from './sub-tab-props';
import { RatioGrid } from './ratio-grid';
import { useRatioMaps } from './use-ratio-maps';
import { useApp } from '../../state/feedback-app';

export function UnpricedModelsView({ section, form }: SubTabProps) {
  const { t } = useTranslation();
  const { message } = useApp();
  const { maps, invalid, titles, setMaps } = useRatioMaps(section, form);
  const [names, setNames] = useState<string[] | undefined>();
  const ready = Boolean(maps);

  useEffect(() => {
    if (!ready || names) return;
    api
      .request<string[]>('get', '/api/channel/models_enabled')
      .then((models) => {
        const priced = (n: string) => maps?.price?.[n] !== undefined || maps?.ratio?.[n] !== undefined;
        setNames((Array.isArray(models) ? models : []).filter((n) => !priced(n)).sort((a, b) => a.localeCompare(b)));
      })
      .catch((err: Error) => {
        setNames([]);
        void message.error(err.message);
      });
  }, [ready, names, maps, message]);

  if (!maps) return <Alert type="warning" showIcon message={t('settings.ratio.invalidJson', { title: invalid })} />;
  if (!names) return <Spin />;
  if (names.length === 0) return <Empty description={t('settings.ratio.allPriced')} data-testid="unpriced-empty" />;
  return (
    <>
      <Alert type="info" showIcon message={t('settings.ratio.unpricedHint', { count: names.length })} style={{ marginBottom: 12 }} />
      <RatioGrid maps={maps} names={names} titles={titles} onChange={setMaps} testId="unpriced-table" />
    </>
  );
}
