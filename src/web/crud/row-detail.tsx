/**
 * Expandable rows (`expand` in a declaration): the row opens in place to show its detail
 * model as labelled lines. Adding a detail = one model function and its name here.
 */
import { Descriptions } from 'antd';
import type { ExpandableConfig } from 'antd/es/table/interface';
import { logBillingDetail } from '../../../resources/logs-billing';
import type { DetailFormat, DetailItem, ExpandDef, RowDetailName } from '../../shared/resources/lists';
import { matches } from './conditions';
import { displayQuota, type QuotaView } from './quota-format';
import type { LabelT } from './use-label';

type Row = Record<string, unknown>;

const DETAILS: Record<RowDetailName, (row: Row, format: DetailFormat) => DetailItem[]> = {
  'log-billing': logBillingDetail,
};

function RowDetail({ items, t }: { items: DetailItem[]; t: LabelT }) {
  return (
    <Descriptions size="small" bordered column={{ xs: 1, sm: 1, md: 1, lg: 2, xl: 2, xxl: 3 }} className="sy-row-detail" data-testid="row-detail">
      {items.map((item) => (
        <Descriptions.Item key={item.key} label={t(item.label)}>
          <span className="sy-row-detail-value">{item.value}</span>
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** The table's `expandable` for a declaration's `expand`, or undefined without one. */
export function rowExpansion(expand: ExpandDef | undefined, quota: QuotaView, t: LabelT): ExpandableConfig<Row> | undefined {
  if (!expand) return undefined;
  const format: DetailFormat = { quota: (value) => displayQuota(value, quota) };
  return {
    // A fixed expand column keeps the opened detail at the visible width of a wide table.
    fixed: 'left',
    rowExpandable: (row) => matches(expand.when, row),
    expandedRowRender: (row) => <RowDetail items={DETAILS[expand.detail](row, format)} t={t} />,
  };
}
