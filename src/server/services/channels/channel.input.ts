/**
 * Turns a schema-checked channel body into the columns to write, applying the channel rules
 * of docs/channels.md#validation with their messages. Pure: nothing here touches the database, so every
 * bad input is refused before a transaction starts.
 */
import type { Updateable } from 'kysely';
import type { ChannelsTable } from '../../db/tables';
import { AppError, MSG } from '../../errors';
import { CHANNEL_TYPE, isKnownChannelType, XUNFEI_DEFAULT_VERSION } from '../../../shared/channel-types';
import { checkSettingProxy, ProxyUrlError } from '../../relay/upstream/proxy-url';
import { baiduKey } from '../../relay/providers/baidu/api';
import { bedrockKey } from '../../relay/providers/bedrock/api';
import { tencentKey } from '../../relay/providers/tencent/api';
import { serviceAccount } from '../../relay/providers/vertex/service-account';
import { xunfeiKey } from '../../relay/providers/xunfei/api';
import { zhipuKey } from '../../relay/providers/zhipu/api';
import type { ChannelBody, JsonField } from './channel.schema';

export const MSG_CHANNEL = {
  nameAndKey: '请填写渠道名称和渠道密钥！',
  models: '请至少选择一个模型！',
  modelTooLong: '模型名称过长: ',
  groupTooLong: '分组名称过长: ',
  vertexRegion: '部署地区不能为空',
  vertexDefault: '部署地区必须包含default字段',
  awsKey: 'AWS 渠道密钥格式错误，应为 AccessKey|SecretAccessKey|Region（或 ApiKey|Region）',
  vertexKey: 'Vertex AI 渠道密钥必须是服务账号的 JSON 密钥（含 project_id、client_email 和 private_key）',
  zhipuKey: '智谱渠道密钥格式错误，应为 id.secret',
  baiduKey: '百度渠道密钥格式错误，应为 APIKey|SecretKey 或 access token',
  tencentKey: '腾讯混元渠道密钥格式错误，应为 AppId|SecretId|SecretKey',
  xunfeiKey: '讯飞渠道密钥格式错误，应为 APPID|APISecret|APIKey',
} as const;

const MAX_MODEL_LENGTH = 255;
/** abilities.group and the reference's channels.group are both varchar(64). */
const MAX_GROUP_LENGTH = 64;
const MAX_GROUPS_TEXT = 64;

export type ChannelColumns = Updateable<ChannelsTable>;

/** Comma list (or list) → trimmed, de-duplicated names in order. */
export function splitNames(input: string | readonly string[] | null | undefined): string[] {
  const parts = typeof input === 'string' ? input.split(',') : (input ?? []);
  return [...new Set(parts.map((s) => s.trim()).filter(Boolean))];
}

/** Model names; refuses an empty list and names longer than 255 characters. */
export function modelList(input: string | readonly string[] | null | undefined): string[] {
  const models = splitNames(input);
  if (models.length === 0) throw new AppError(MSG_CHANNEL.models);
  const long = models.find((m) => [...m].length > MAX_MODEL_LENGTH);
  if (long) throw new AppError(MSG_CHANNEL.modelTooLong + long);
  return models;
}

/** Group names; an empty list means the default group. */
export function groupList(input: string | readonly string[] | null | undefined): string[] {
  const groups = splitNames(input);
  if (groups.length === 0) return ['default'];
  const long = groups.find((g) => [...g].length > MAX_GROUP_LENGTH);
  if (long) throw new AppError(MSG_CHANNEL.groupTooLong + long);
  if ([...groups.join(',')].length > MAX_GROUPS_TEXT) throw new AppError(MSG_CHANNEL.groupTooLong + groups.join(','));
  return groups;
}

/** Non-empty text must be a JSON object; answers the text to store (null when empty). */
export function jsonText(value: string | null | undefined, message: string): string | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError(message);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AppError(message);
  return text;
}

function optionalText(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  return text === '' ? null : text;
}

/** The setting's proxy must be usable: a bad address is refused (400), never stored. */
function checkProxy(setting: string): void {
  try {
    checkSettingProxy(JSON.parse(setting) as Record<string, unknown>);
  } catch (err) {
    if (err instanceof ProxyUrlError) throw new AppError(err.message, 400);
    throw err;
  }
}

/** Vertex keeps its region in `other`: a name, or JSON with a `default` entry. */
function checkVertexRegion(other: string): void {
  if (other === '') throw new AppError(MSG_CHANNEL.vertexRegion);
  if (!other.startsWith('{')) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(other);
  } catch {
    throw new AppError(MSG_CHANNEL.vertexDefault);
  }
  if (!parsed || typeof parsed !== 'object' || !('default' in parsed)) throw new AppError(MSG_CHANNEL.vertexDefault);
}

export interface ExistingChannel {
  type: number;
  other: string | null;
}

/**
 * The columns a body writes. With `existing` (an update) only the fields present change,
 * and an empty key keeps the stored one; without it (a create) name, key and models are
 * required and the channel defaults fill the rest. The key itself is not returned here:
 * creates split it into one channel per line, updates take it from `updateKey`.
 */
export function channelColumns(body: ChannelBody, jsonFields: readonly JsonField[], existing?: ExistingChannel): ChannelColumns {
  const creating = !existing;
  const has = (field: keyof ChannelBody) => body[field] !== undefined;
  const out: ChannelColumns = {};

  if (creating || has('name')) {
    const name = (body.name ?? '').trim();
    if (!name || (creating && !(body.key ?? '').trim())) throw new AppError(MSG_CHANNEL.nameAndKey);
    out.name = name;
  }
  if (creating || has('models')) out.models = modelList(body.models).join(',');
  if (creating || has('group') || has('groups')) out.group = groupList(body.groups ?? body.group).join(',');
  if (creating || has('type')) {
    const type = body.type ?? CHANNEL_TYPE.openai;
    if (!isKnownChannelType(type)) throw new AppError(`${MSG.invalidParams}: type ${type}`);
    out.type = type;
  }
  if (creating || has('base_url')) out.base_url = (body.base_url ?? '').trim().replace(/\/+$/, '');
  for (const { field, message } of jsonFields) {
    const key = field as keyof ChannelBody & keyof ChannelColumns;
    if (creating || has(key)) (out as Record<string, unknown>)[key] = jsonText(body[key] as string | null | undefined, message);
  }
  if (typeof out.setting === 'string') checkProxy(out.setting);
  for (const field of ['test_model', 'tag'] as const) {
    if (creating || has(field)) out[field] = optionalText(body[field]);
  }
  if (creating || has('openai_organization')) out.open_ai_organization = optionalText(body.openai_organization);
  for (const field of ['max_input_tokens', 'auto_ban', 'priority', 'weight', 'status'] as const) {
    if (has(field)) out[field] = body[field];
  }
  if (creating) {
    out.auto_ban ??= 1;
    out.priority ??= 0;
    out.weight ??= 0;
    out.status ??= 1;
    out.max_input_tokens ??= 0;
    out.other_info ??= '';
  }

  // `other` depends on the resulting type: Xunfei defaults its version, Vertex needs a region.
  if (creating || has('other') || has('type')) {
    const type = (out.type as number | undefined) ?? existing!.type;
    let other = has('other') || creating ? (body.other ?? '').trim() : (existing!.other ?? '').trim();
    if (type === CHANNEL_TYPE.xunfei && other === '') other = XUNFEI_DEFAULT_VERSION;
    if (type === CHANNEL_TYPE.vertex) checkVertexRegion(other);
    out.other = other;
  }
  return out;
}

/**
 * Keys whose format the relay parses are checked when saved (the same parsers), so a key the
 * channel could never use is refused here rather than failing every request.
 */
const KEY_CHECKS: Record<number, { parse: (key: string) => unknown; message: string }> = {
  [CHANNEL_TYPE.aws]: { parse: bedrockKey, message: MSG_CHANNEL.awsKey },
  [CHANNEL_TYPE.vertex]: { parse: serviceAccount, message: MSG_CHANNEL.vertexKey },
  [CHANNEL_TYPE.baidu]: { parse: baiduKey, message: MSG_CHANNEL.baiduKey },
  [CHANNEL_TYPE.zhipu]: { parse: zhipuKey, message: MSG_CHANNEL.zhipuKey },
  [CHANNEL_TYPE.xunfei]: { parse: xunfeiKey, message: MSG_CHANNEL.xunfeiKey },
  [CHANNEL_TYPE.tencent]: { parse: tencentKey, message: MSG_CHANNEL.tencentKey },
};

export function checkKey(type: number | undefined, key: string): void {
  const check = type === undefined ? undefined : KEY_CHECKS[type];
  if (!check) return;
  try {
    check.parse(key);
  } catch {
    throw new AppError(check.message);
  }
}

/** The keys of a create: one channel per non-empty line; Vertex keys are one JSON document. */
export function keysToCreate(body: ChannelBody): string[] {
  const key = (body.key ?? '').trim();
  const keys =
    body.type === CHANNEL_TYPE.vertex
      ? key
        ? [key]
        : []
      : [
          ...new Set(
            key
              .split('\n')
              .map((k) => k.trim())
              .filter(Boolean),
          ),
        ];
  for (const one of keys) checkKey(body.type, one);
  return keys;
}

/** An update's new key (checked for the channel's resulting type), or undefined to keep the stored one. */
export function updateKey(body: ChannelBody, type: number): string | undefined {
  const key = (body.key ?? '').trim();
  if (key === '') return undefined;
  checkKey(type, key);
  return key;
}
