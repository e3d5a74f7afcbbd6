/**
 * An editable number in a list cell (channel priority and weight, docs/console.md#lists-and-forms): saved when
 * the user leaves the field or presses Enter, through the first declared rule that fits the
 * row (a channel, or a whole tag), then the list reloads.
 */
import { useDataProvider, useInvalidate } from '@refinedev/core';
import { InputNumber } from 'antd';
import { useRef, useState } from 'react';
import { useLabel } from '../use-label';
import type { InlineEditDef, InlineNumberColumn } from '../../../shared/resources/columns';
import type { ResourceDefinition } from '../../../shared/resources/definition';
import { fillBody, matches } from '../conditions';
import { useApp } from '../../state/feedback-app';

type Row = Record<string, unknown>;

/** Whether `value` fits the editor's bounds. */
export function validInlineNumber(value: number | null, edit: InlineEditDef): value is number {
  if (value === null || !Number.isFinite(value)) return false;
  if (edit.integer && !Number.isInteger(value)) return false;
  if (edit.min !== undefined && value < edit.min) return false;
  return edit.max === undefined || value <= edit.max;
}

interface InlineNumberCellProps {
  value: unknown;
  row: Row;
  column: InlineNumberColumn;
  resource: ResourceDefinition;
}

export function InlineNumberCell({ value, row, column, resource }: InlineNumberCellProps) {
  const t = useLabel();
  const { message } = useApp();
  const dataProvider = useDataProvider();
  const invalidate = useInvalidate();
  const stored = Number(value ?? 0);
  const [draft, setDraft] = useState<number | null>(stored);
  const [saving, setSaving] = useState(false);
  // Enter and the blur that follows must save once.
  const inFlight = useRef(false);
  const edit = column.inlineEdit;

  const save = async () => {
    if (draft === stored || inFlight.current) return;
    if (!validInlineNumber(draft, edit)) {
      void message.error(t(edit.invalidKey));
      setDraft(stored);
      return;
    }
    const rule = edit.rules.find((r) => matches(r.when, row));
    if (!rule) return;
    inFlight.current = true;
    setSaving(true);
    try {
      const payload = fillBody(rule.body, { row, inputs: { value: draft } });
      await dataProvider().custom!({ url: '', method: 'post', payload, meta: { resource: resource.name, endpoint: rule.endpoint, id: row.id } });
      void message.success(t(edit.successKey ?? 'crud.messages.saved'));
      await invalidate({ resource: resource.name, invalidates: ['list'] });
    } catch (err) {
      void message.error((err as Error).message);
      setDraft(stored);
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  };

  return (
    <InputNumber
      size="small"
      style={{ width: 80 }}
      value={draft}
      disabled={saving}
      onChange={setDraft}
      onBlur={() => void save()}
      onPressEnter={() => void save()}
      aria-label={t(column.titleKey)}
      data-testid={`inline-${column.field}`}
    />
  );
}
