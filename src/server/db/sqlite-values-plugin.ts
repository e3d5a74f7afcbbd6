/**
 * better-sqlite3 binds only numbers, strings, bigints, buffers and null. This plugin turns
 * booleans into 0/1 and dates into ISO text before a query reaches it, so repositories can
 * write the same values on every database.
 */
import {
  OperationNodeTransformer,
  PrimitiveValueListNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

function toSqlite(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  return value;
}

class SqliteValueTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const next = super.transformValue(node);
    const converted = toSqlite(next.value);
    return converted === next.value ? next : ValueNode.create(converted);
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    const next = super.transformPrimitiveValueList(node);
    if (!next.values.some((v) => typeof v === 'boolean' || v instanceof Date)) return next;
    return PrimitiveValueListNode.create(next.values.map(toSqlite));
  }
}

export class SqliteValuesPlugin implements KyselyPlugin {
  readonly #transformer = new SqliteValueTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
