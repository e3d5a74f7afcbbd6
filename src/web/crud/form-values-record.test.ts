import { describe, expect, it } from 'vitest';
import type { FormFieldDef } from '../../shared/resources/forms';
import { formValuesFromRecord } from './form-values';

describe('formValuesFromRecord', () => {
  it('starts declared fields from another record field', () => {
    const fields: FormFieldDef[] = [{ field: 'groups', kind: 'select', labelKey: 'x', options: { kind: 'static', options: [] }, initialFrom: { field: 'group', split: ',' } }];
    expect(formValuesFromRecord(fields, { group: 'default, vip', name: 'c' })).toEqual({ group: 'default, vip', name: 'c', groups: ['default', 'vip'] });
    expect(formValuesFromRecord(fields, undefined)).toBeUndefined();
  });
});
