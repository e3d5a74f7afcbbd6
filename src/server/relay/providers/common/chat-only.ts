/**
 * A provider whose upstream serves OpenAI-style chat only, through its own wire format
 * (Zhipu v3, Tencent Hunyuan, Xunfei Spark): every other mode is refused before any call.
 */
import type { JsonObject } from './json';
import { type ParsedResponse, type Provider, ProviderRequestError, type RelayMode, type StreamConverter, type Target, type UpstreamRequest } from '../types';

const CHAT: ReadonlySet<RelayMode> = new Set(['chat']);

export interface ChatOnlySpec extends Pick<Provider, 'id' | 'authorize' | 'parseError' | 'sseExtraField'> {
  /** Named in the refusal of other modes ("… is not supported by <label> channels"). */
  label: string;
  request(body: JsonObject, target: Target, stream: boolean): UpstreamRequest;
  response(json: unknown, target: Target): ParsedResponse;
  stream(target: Target, includeUsage: boolean): StreamConverter;
}

export function chatOnlyProvider(spec: ChatOnlySpec): Provider {
  const assertChat = (mode: RelayMode) => {
    if (mode !== 'chat') throw new ProviderRequestError(`${mode} is not supported by ${spec.label} channels`, 'not_supported');
  };
  const provider: Provider = {
    id: spec.id,
    modes: CHAT,
    buildRequest(mode, body, target, stream) {
      assertChat(mode);
      return spec.request(body, target, stream);
    },
    parseResponse(mode, json, target) {
      assertChat(mode);
      return spec.response(json, target);
    },
    createStream(mode, target, client) {
      assertChat(mode);
      return spec.stream(target, client.includeUsage);
    },
    parseError: spec.parseError,
  };
  if (spec.authorize) provider.authorize = spec.authorize;
  if (spec.sseExtraField) provider.sseExtraField = spec.sseExtraField;
  return provider;
}
