/**
 * The date-time control of a search form. antd's DatePicker (with its calendar panels) is the
 * largest control a list can need, and most lists (channels, tokens, users) have no time
 * filter: it is loaded only by the lists that show one (see search-form.tsx).
 */
import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';

export default function DateTimeSearch({ value, onChange, placeholder, style }: { value?: unknown; onChange?: (value: unknown) => void; placeholder: string; style: React.CSSProperties }) {
  return <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" placeholder={placeholder} style={style} value={value as Dayjs | undefined} onChange={onChange} />;
}
