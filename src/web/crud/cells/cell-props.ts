/** What every column renderer receives (renderers.tsx draws each column through its renderer). */
import type { RowActionDef } from '../../../shared/resources/actions';
import type { ColumnDef } from '../../../shared/resources/columns';
import type { ResourceDefinition } from '../../../shared/resources/definition';
import type { QuotaView } from '../quota-format';
import type { LabelT } from '../use-label';

type Row = Record<string, unknown>;

export interface RenderContext {
  /** Resolves a declaration text: a locale key or an inline `{ zh, en }` (use-label.ts). */
  t: LabelT;
  quota: QuotaView;
  /** The list's resource and its row-action runner, for cells that act (inline edits, action tags). */
  resource?: ResourceDefinition;
  runRow?: (action: RowActionDef, row: Row) => Promise<boolean>;
}

/** A cell component's props: the value, its row, the column (its renderer's variant) and the context. */
export interface CellProps<C extends ColumnDef = ColumnDef> {
  value: unknown;
  row: Row;
  column: C;
  ctx: RenderContext;
}
