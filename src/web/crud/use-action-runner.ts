/**
 * Runs a declaration's row, batch and toolbar actions through the one data provider, then
 * refreshes the list (the row shows the role and status the server now holds). Actions
 * that ask first (a form, a pick list) open their dialog through `dialogs`, which the list
 * renders once.
 */
import { useDataProvider, useInvalidate, type BaseKey } from '@refinedev/core';
import { useState } from 'react';
import { useLabel } from './use-label';
import type { BatchActionDef, DuplicateActionDef, RowActionDef, ToolbarActionDef } from '../../shared/resources/actions';
import type { ResourceDefinition } from '../../shared/resources/definition';
import type { Label } from '../../shared/resources/label';
import { useCopy } from '../components/use-copy';
import { useChatLauncher } from './use-chat-launcher';
import { useActionDialogs } from './action-dialogs';
import { commaList, fillTemplate } from './cell-values';
import { buildBody, fillBody } from './conditions';
import { useApp } from '../state/feedback-app';

type Row = Record<string, unknown>;

interface Call {
  endpoint: string | undefined;
  body?: Record<string, unknown>;
  id?: unknown;
  query?: Record<string, string>;
  /** Answer the whole reply (fields beside `data`: test time, balance). */
  whole?: boolean;
}

/** What a success message may interpolate: the row, then the reply's fields, and the reply as `data`. */
function messageValues(row: Row | undefined, result: unknown): Record<string, unknown> {
  const reply = result && typeof result === 'object' && !Array.isArray(result) ? (result as Row) : {};
  const time = typeof reply.time === 'number' ? reply.time.toFixed(2) : reply.time;
  return { ...row, ...reply, time, data: reply.data ?? result };
}

export function useActionRunner(resource: ResourceDefinition) {
  const t = useLabel();
  const { message } = useApp();
  const dataProvider = useDataProvider();
  const invalidate = useInvalidate();
  const copy = useCopy();
  const dialogs = useActionDialogs();
  const launchChat = useChatLauncher(dialogs.openPick);
  const [busy, setBusy] = useState<string | null>(null);

  async function guarded(key: string, success: { key?: Label; row?: Row }, work: () => Promise<unknown>): Promise<boolean> {
    setBusy(key);
    try {
      const result = await work();
      void message.success(t(success.key ?? 'crud.messages.done', messageValues(success.row, result)));
      await invalidate({ resource: resource.name, invalidates: ['list', 'detail'] });
      return true;
    } catch (err) {
      void message.error((err as Error).message);
      return false;
    } finally {
      setBusy(null);
    }
  }

  async function call({ endpoint, body, id, query, whole }: Call): Promise<unknown> {
    const reply = await dataProvider().custom!({ url: '', method: 'post', payload: body, query, meta: { resource: resource.name, endpoint, id, whole } });
    return reply.data;
  }

  /** Copy: reads the whole record (keys never leave the server), creates it again under a new name. */
  async function duplicate(action: DuplicateActionDef, row: Row): Promise<boolean> {
    let source: Row;
    try {
      source = (await dataProvider().getOne({ resource: resource.name, id: row.id as BaseKey })).data as Row;
    } catch {
      void message.error(t(action.notFoundKey ?? 'errors.unknown'));
      return false;
    }
    const copyOf: Row = Object.fromEntries(Object.entries(source).filter(([k]) => !(action.omit ?? []).includes(k)));
    copyOf.name = `${String(source.name ?? '')}${t(action.nameSuffixKey ?? 'crud.actions.copySuffix')}`;
    return guarded(`${action.key}:${String(row.id)}`, { key: action.successKey, row }, () =>
      dataProvider()
        .create({ resource: resource.name, variables: copyOf })
        .catch((err: Error) => {
          throw new Error(`${t(action.failedKey ?? 'errors.unknown')}: ${err.message}`);
        }),
    );
  }

  function runRow(action: RowActionDef, row: Row): Promise<boolean> {
    const id = row.id as BaseKey;
    const key = `${action.key}:${id}`;
    const success = { key: 'successKey' in action ? action.successKey : undefined, row };
    switch (action.kind) {
      case 'copy':
        return copy(fillTemplate(action.template ?? '{id}', row), action.successKey ? t(action.successKey) : undefined);
      case 'duplicate':
        return duplicate(action, row);
      case 'chat-link':
        return launchChat(action, row);
      case 'pick-request':
        dialogs.openPick({
          titleKey: action.pickTitleKey ?? action.labelKey,
          options: commaList(row[action.pickField ?? 'models']),
          run: (value) => guarded(key, success, () => call({ endpoint: action.endpoint, id, query: { [action.pickQuery ?? 'value']: value }, whole: action.withReply })),
        });
        return Promise.resolve(true);
      case 'dialog': {
        const initial = Object.fromEntries(Object.entries(action.dialog.initialFrom ?? {}).map(([field, from]) => [field, row[from]]));
        dialogs.openForm({
          def: action.dialog,
          initial,
          submit: (inputs) => guarded(key, success, () => call({ endpoint: action.endpoint, body: fillBody(action.body, { row, inputs }), id })),
        });
        return Promise.resolve(true);
      }
      case 'status':
        return guarded(key, success, () => dataProvider().update({ resource: resource.name, id, variables: { status: action.status }, meta: { statusOnly: true } }));
      case 'delete':
        return guarded(key, success, () => dataProvider().deleteOne({ resource: resource.name, id }));
      case 'request':
        return guarded(key, success, () => call({ endpoint: action.endpoint, body: buildBody(action.body, row), id, whole: action.withReply }));
      case 'edit':
        // The row's button opens the edit drawer itself (row-actions.tsx); nothing to call.
        return Promise.resolve(true);
    }
  }

  async function runBatch(action: BatchActionDef, rows: Row[]): Promise<boolean> {
    if (rows.length === 0) {
      void message.warning(t(action.emptySelectionKey));
      return false;
    }
    if (action.kind === 'copy') {
      const { template, field } = action;
      const text = rows.map((r) => (template ? fillTemplate(template, r) : String(r[field ?? 'id'] ?? ''))).join('\n');
      return copy(text, action.successKey ? t(action.successKey) : undefined);
    }
    const key = `batch:${action.key}`;
    if (action.kind === 'dialog') {
      dialogs.openForm({
        def: action.dialog,
        initial: {},
        submit: (inputs) => guarded(key, { key: action.successKey }, () => call({ endpoint: action.endpoint, body: fillBody(action.body, { selected: rows, inputs }) })),
      });
      return true;
    }
    return guarded(key, { key: action.successKey }, () => call({ endpoint: action.endpoint, body: buildBody(action.body, undefined, rows) }));
  }

  function runToolbar(action: ToolbarActionDef): Promise<boolean> {
    return guarded(`toolbar:${action.key}`, { key: action.successKey }, () => call({ endpoint: action.endpoint, body: buildBody(action.body, undefined) }));
  }

  return { busy, runRow, runBatch, runToolbar, dialogs: dialogs.node };
}
