/**
 * Totals over the list's current filters (usage log: quota, rpm, tpm; docs/logs.md#statistics), from
 * `GET <api><stats.path>` with the same query as the list.
 */
import type { CrudFilter } from '@refinedev/core';
import { useCustom } from '@refinedev/core';
import { Space, Tag } from 'antd';
import { useLabel } from './use-label';
import type { StatsDef } from '../../shared/resources/lists';
import { filtersToQuery, joinPath } from '../wire/mappings';
import { usePublicStatus } from '../state/status-context';
import { displayQuota, quotaView } from './quota-format';

export function StatStrip({ stats, api, filters }: { stats: StatsDef; api: string; filters: CrudFilter[] }) {
  const t = useLabel();
  const view = quotaView(usePublicStatus());
  const { result, query } = useCustom<Record<string, number>>({
    url: joinPath(api, stats.path),
    method: 'get',
    config: { query: filtersToQuery(filters) },
    errorNotification: false,
  });
  const data = (result?.data ?? {}) as Record<string, number>;
  return (
    <Space wrap size={[8, 8]} className="sy-stat-strip" data-testid="stat-strip">
      {stats.items.map((item) => {
        const raw = Number(data[item.field] ?? 0);
        const shown = query.isLoading ? '…' : item.format === 'quota' ? displayQuota(raw, view) : raw.toLocaleString('en-US');
        return (
          <Tag key={item.field} color={item.color} bordered={false} className="sy-stat">
            {t(item.labelKey)}: {shown}
          </Tag>
        );
      })}
    </Space>
  );
}
