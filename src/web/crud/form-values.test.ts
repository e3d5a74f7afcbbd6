import { describe, expect, it } from 'vitest';
import type { FormFieldDef } from '../../shared/resources/forms';
import { defaultValues, fieldsFor, submittedValues, visibleFields } from './form-values';

const fields: FormFieldDef[] = [
  { field: 'name', kind: 'text', labelKey: 'n' },
  { field: 'password', kind: 'password', labelKey: 'p', modes: ['create'] },
  { field: 'password', kind: 'password', labelKey: 'p', modes: ['edit'] },
  { field: 'type', kind: 'select', labelKey: 't', options: { kind: 'registry', name: 'channel-types' }, default: 1 },
  { field: 'other', kind: 'text', labelKey: 'o', visibleWhen: { field: 'type', in: [18] } },
  { field: 'quota', kind: 'quota', labelKey: 'q', modes: ['edit'] },
  { field: 'github_id', kind: 'readonly', labelKey: 'g', modes: ['edit'] },
];

describe('form values', () => {
  it('picks the fields of a mode', () => {
    expect(fieldsFor(fields, 'create').map((f) => f.field)).toEqual(['name', 'password', 'type', 'other']);
    expect(fieldsFor(fields, 'edit').map((f) => f.field)).toEqual(['name', 'password', 'type', 'other', 'quota', 'github_id']);
  });

  it('shows conditional fields only for their values', () => {
    expect(visibleFields(fields, { type: 1 }).some((f) => f.field === 'other')).toBe(false);
    expect(visibleFields(fields, { type: 18 }).some((f) => f.field === 'other')).toBe(true);
  });

  it('starts create forms from the defaults', () => {
    expect(defaultValues(fields)).toEqual({ type: 1 });
  });

  it('sends shown editable values, without an empty password or read-only fields', () => {
    const edit = fieldsFor(fields, 'edit');
    expect(submittedValues(edit, { name: 'a', password: '', type: 1, other: 'hidden', quota: 5, github_id: 'gh' })).toEqual({ name: 'a', type: 1, quota: 5 });
    expect(submittedValues(edit, { name: 'a', password: 'secret123', type: 18, other: 'v2', quota: null })).toEqual({ name: 'a', password: 'secret123', type: 18, other: 'v2' });
  });
});
