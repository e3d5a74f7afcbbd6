/** The declared search fields; searching sends them as filters (the data provider picks the route). */
import { SearchOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Select, type FormProps } from 'antd';
import { lazy, Suspense } from 'react';
import { useLabel } from './use-label';
import type { SearchFieldDef } from '../../shared/resources/search';
import { useOptions } from './use-options';

/** Only lists with a time filter load the date picker. */
const DateTimeSearch = lazy(() => import('./widgets/date-time-search'));

/** Form.Item hands `value` and `onChange` to its child; both are passed on to the control. */
interface ControlProps {
  value?: unknown;
  onChange?: (value: unknown) => void;
}

function SearchSelect({ def, ...props }: ControlProps & { def: SearchFieldDef; placeholder: string; style: React.CSSProperties }) {
  const { options, loading } = useOptions(def.options);
  return <Select {...props} options={options} loading={loading} allowClear showSearch optionFilterProp="label" />;
}

function SearchInput({ def, value, onChange }: ControlProps & { def: SearchFieldDef }) {
  const t = useLabel();
  const placeholder = t(def.placeholderKey);
  const style = { width: def.width ?? 200, maxWidth: '100%' };
  if (def.kind === 'select') return <SearchSelect def={def} placeholder={placeholder} style={style} value={value} onChange={onChange} />;
  if (def.kind === 'number') return <InputNumber placeholder={placeholder} style={style} value={value as number | undefined} onChange={onChange} />;
  if (def.kind === 'datetime') {
    const sized = { ...style, width: def.width ?? 200 };
    return (
      <Suspense fallback={<Input placeholder={placeholder} style={sized} disabled />}>
        <DateTimeSearch placeholder={placeholder} style={sized} value={value} onChange={onChange} />
      </Suspense>
    );
  }
  return <Input placeholder={placeholder} style={style} allowClear value={value as string | undefined} onChange={(e) => onChange?.(e.target.value)} />;
}

export function SearchForm({ fields, formProps }: { fields: SearchFieldDef[]; formProps: FormProps }) {
  const t = useLabel();
  if (fields.length === 0) return null;
  return (
    <Form {...formProps} layout="inline" className="sy-search" data-testid="search-form">
      {fields.map((def) => (
        <Form.Item key={def.field} name={def.field}>
          <SearchInput def={def} />
        </Form.Item>
      ))}
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('crud.actions.search')}
        </Button>
      </Form.Item>
    </Form>
  );
}
