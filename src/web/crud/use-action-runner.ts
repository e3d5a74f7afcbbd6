/**
 * Runs a declaration's row and batch actions through the one data provider, then refreshes
 * the list (the row shows the role and status the server now holds).
 */
import { useDataProvider, useInvalidate, type BaseKey } from '@refinedev/core';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchActionDef, ResourceDefinition, RowActionDef } from '../../shared/resources/definition';
import { useCopy } from '../components/use-copy';
import { buildBody } from './conditions';

type Row = Record<string, unknown>;

export function useActionRunner(resource: ResourceDefinition) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dataProvider = useDataProvider();
  const invalidate = useInvalidate();
  const copy = useCopy();
  const [busy, setBusy] = useState<string | null>(null);

  async function guarded(key: string, successKey: string | undefined, work: () => Promise<unknown>): Promise<boolean> {
    setBusy(key);
    try {
      await work();
      void message.success(t(successKey ?? 'crud.messages.done'));
      await invalidate({ resource: resource.name, invalidates: ['list', 'detail'] });
      return true;
    } catch (err) {
      void message.error((err as Error).message);
      return false;
    } finally {
      setBusy(null);
    }
  }

  function callEndpoint(endpoint: string | undefined, body: Record<string, unknown>, id?: unknown) {
    return dataProvider().custom!({ url: '', method: 'post', payload: body, meta: { resource: resource.name, endpoint, id } });
  }

  function runRow(action: RowActionDef, row: Row): Promise<boolean> {
    const id = row.id as BaseKey;
    return guarded(`${action.key}:${id}`, action.successKey, () => {
      const dp = dataProvider();
      if (action.kind === 'status') return dp.update({ resource: resource.name, id, variables: { status: action.status }, meta: { statusOnly: true } });
      if (action.kind === 'delete') return dp.deleteOne({ resource: resource.name, id });
      return callEndpoint(action.endpoint, buildBody(action.body, row), id);
    });
  }

  async function runBatch(action: BatchActionDef, rows: Row[]): Promise<boolean> {
    if (rows.length === 0) {
      void message.warning(t(action.emptySelectionKey));
      return false;
    }
    if (action.kind === 'copy') {
      return copy(rows.map((r) => String(r[action.field ?? 'id'] ?? '')).join('\n'), action.successKey ? t(action.successKey) : undefined);
    }
    return guarded(`batch:${action.key}`, action.successKey, () => callEndpoint(action.endpoint, buildBody(action.body, undefined, rows)));
  }

  return { busy, runRow, runBatch };
}
