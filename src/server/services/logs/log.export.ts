/**
 * Usage logs as CSV (the list's filters and scope): read from the database a keyset page
 * at a time and handed to the CSV writer only as fast as the client takes them, so memory
 * stays flat however many rows match. Headers are the console's Chinese column names.
 *
 * Cells are text a user chose (token names, model names, prompts in `content`): a text cell
 * beginning with = + - @ (or a tab or carriage return) is prefixed with ' so a spreadsheet
 * shows it instead of running it as a formula.
 */
import { Readable, pipeline } from 'node:stream';
import { packageOnFirstUse } from '../../plumbing/on-first-use';
import type { AppContext } from '../../context';
import { asBool, type LogRow } from '../../db/tables';
import { channelNames, logsBelowId } from './log.repository';
import { filterOf, withoutAdminInfo, type LogQuery, type LogScope } from './log.service';

const csvStringify = packageOnFirstUse<typeof import('csv-stringify')>('csv-stringify');

/** Rows read per query. */
export const EXPORT_PAGE_SIZE = 1000;

const TYPE_NAMES: Record<number, string> = { 1: '充值', 2: '消费', 3: '管理', 4: '系统' };

type Cell = string | number;
interface Column {
  header: string;
  adminOnly?: boolean;
  value: (row: LogRow, channelName: string) => Cell;
}

function localTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

const COLUMNS: Column[] = [
  { header: 'ID', value: (r) => r.id },
  { header: '时间', value: (r) => localTime(Number(r.created_at)) },
  { header: '渠道', adminOnly: true, value: (r) => r.channel_id },
  { header: '渠道名称', adminOnly: true, value: (_r, name) => name },
  { header: '用户', adminOnly: true, value: (r) => r.username ?? '' },
  { header: '令牌', value: (r) => r.token_name ?? '' },
  { header: '分组', value: (r) => r.group ?? '' },
  { header: '类型', value: (r) => TYPE_NAMES[r.type] ?? '未知' },
  { header: '模型', value: (r) => r.model_name ?? '' },
  { header: '用时(秒)', value: (r) => Number(r.use_time) },
  { header: '流式', value: (r) => (asBool(r.is_stream) ? '是' : '否') },
  { header: '提示', value: (r) => Number(r.prompt_tokens) },
  { header: '补全', value: (r) => Number(r.completion_tokens) },
  { header: '额度', value: (r) => Number(r.quota) },
  { header: '详情', value: (r) => r.content ?? '' },
  { header: '其他', value: (r) => r.other ?? '' },
];

/** A text cell a spreadsheet would read as a formula gets a leading '. */
export function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The rows of the filter, newest first, one page in memory at a time. */
async function* exportRows(ctx: AppContext, query: LogQuery, scope: LogScope, columns: Column[]): AsyncGenerator<Cell[]> {
  const filter = filterOf(query, scope);
  const names = new Map<number, string>();
  let below: number | undefined;
  for (;;) {
    const page = await logsBelowId(ctx.db, filter, below, EXPORT_PAGE_SIZE);
    if (page.length === 0) return;
    if (scope.admin) {
      const unknown = [...new Set(page.map((r) => r.channel_id))].filter((id) => id > 0 && !names.has(id));
      for (const [id, name] of await channelNames(ctx.db, unknown)) names.set(id, name);
      for (const id of unknown) if (!names.has(id)) names.set(id, '');
    }
    for (const raw of page) {
      const row = scope.admin ? raw : { ...raw, other: withoutAdminInfo(raw.other ?? '') };
      yield columns.map((c) => c.value(row, names.get(row.channel_id) ?? ''));
    }
    below = page[page.length - 1]!.id;
    if (page.length < EXPORT_PAGE_SIZE) return;
  }
}

/**
 * The CSV stream of an export (UTF-8 with a byte order mark, so spreadsheets read the
 * Chinese headers). Reading stops when the stream is destroyed (the client went away).
 */
export function exportLogsCsv(ctx: AppContext, query: LogQuery, scope: LogScope): Readable {
  const columns = COLUMNS.filter((c) => scope.admin || !c.adminOnly);
  const csv = csvStringify().stringify({ bom: true, header: true, columns: columns.map((c) => c.header), cast: { string: guardFormula } });
  // A failure mid-way destroys the returned stream with the error, which the server reports
  // (the reply is cut short, so the client sees an incomplete download, never a partial
  // file that looks whole).
  return pipeline(Readable.from(exportRows(ctx, query, scope, columns)), csv, () => undefined);
}
