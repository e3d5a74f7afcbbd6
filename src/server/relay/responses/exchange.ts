/**
 * The pipeline's part of `/v1/responses` (issue #14): what differs from the other endpoints,
 * kept out of the shared steps so the chat path does no extra work.
 *
 * - Before the reservation (`prepareResponses`): `previous_response_id` is looked up among the
 *   token's stored responses. One stored here (converted) gives its conversation, which is put
 *   before the new input; one an upstream stores pins the request to that channel, where the id
 *   means something; an unknown id goes on as sent (a pass-through upstream judges it; a
 *   converting channel refuses it).
 * - Per attempt (`responsesInput`): channels whose provider speaks the Responses API get the
 *   body as is (pass-through); every other channel gets it converted to OpenAI chat
 *   (formats/responses-request-to-chat.ts) and its answer converted back (a Response object or
 *   the Responses event stream).
 * - After the answer (`ResponsesBridge`): converted responses are stored (input items, output
 *   items and the object), pass-through ones recorded by id and channel, unless the request
 *   said `store: false` or the option keeps nothing.
 */
import { CHANNEL_STATUS } from '../../../shared/channel-types';
import type { RelayChannel } from '../channels/channel-index';
import { refuse } from '../errors';
import { responsesFromChat, type ResponseMeta } from '../formats/chat-response-to-responses';
import { ResponsesStreamFromChat } from '../formats/chat-stream-to-responses';
import { chatRequestFromResponses } from '../formats/responses-request-to-chat';
import { inputItems, requestText, responsesId } from '../formats/responses-items';
import { type JsonObject, arr, isRecord, obj, str } from '../providers/common/json';
import { ResponsesPassThroughStream } from '../providers/common/responses-stream';
import type { Provider, RelayMode, StreamConverter } from '../providers/types';
import type { RelayRuntime } from '../runtime';
import type { Delivered, RelayCall } from '../pipeline/call';
import { countText } from '../pipeline/token-count';
import { responsesStore } from './store';

const HALF_INT32 = 2 ** 30;

/** Resolves `previous_response_id` and the estimate's output limit; runs once, before the reservation. */
export async function prepareResponses(rt: RelayRuntime, call: RelayCall): Promise<void> {
  const max = call.body.max_output_tokens;
  if (typeof max === 'number' && Number.isInteger(max) && max > 0 && max <= HALF_INT32) call.maxTokens = max;
  const previous = str(call.body.previous_response_id);
  call.responses = {};
  if (!previous) return;
  const stored = await responsesStore(rt).find(previous, call.caller.tokenId);
  if (!stored) return;
  if (stored.channelId > 0) {
    const channel = rt.channels.byId(stored.channelId);
    if (!channel || channel.status !== CHANNEL_STATUS.enabled) {
      throw refuse(400, `the channel that stores response '${previous}' is not available any more`, 'previous_response_not_found', 'invalid_request_error');
    }
    call.caller.forced = channel;
    return;
  }
  const history = [...arr(stored.data?.input), ...arr(stored.data?.output)].filter(isRecord);
  call.responses.history = history;
  // The stored conversation is read by the model too: the estimate counts it.
  const own = call.promptTokens;
  let counted: number | undefined;
  call.promptTokens = () => (counted ??= own() + countText(requestText({ input: history }), call.model));
}

/** The mode and body a provider gets, and the bridge that turns its answer back. */
export function responsesInput(rt: RelayRuntime, provider: Provider, call: RelayCall): { mode: RelayMode; body: JsonObject; viaChat: false; responses: ResponsesBridge } {
  const history = call.responses?.history;
  if (provider.modes.has('responses')) {
    // A conversation stored here goes to a Responses upstream inline: it has never seen the id.
    if (!history) return { mode: 'responses', body: call.body, viaChat: false, responses: new ResponsesBridge(rt, call, false) };
    const body: JsonObject = { ...call.body, input: [...history, ...inputItems(call.body.input)] };
    delete body.previous_response_id;
    return { mode: 'responses', body, viaChat: false, responses: new ResponsesBridge(rt, call, false) };
  }
  const previous = str(call.body.previous_response_id);
  if (previous && !history) throw refuse(400, `Previous response with id '${previous}' not found.`, 'previous_response_not_found', 'invalid_request_error');
  return { mode: 'chat', body: chatRequestFromResponses(call.body, history), viaChat: false, responses: new ResponsesBridge(rt, call, true) };
}

export class ResponsesBridge {
  private readonly meta: ResponseMeta;
  private passStream: ResponsesPassThroughStream | undefined;
  private chatStream: ResponsesStreamFromChat | undefined;

  constructor(
    private readonly rt: RelayRuntime,
    private readonly call: RelayCall,
    /** Served through chat (else passed through to a Responses upstream). */
    readonly converted: boolean,
  ) {
    this.meta = { id: responsesId('resp'), createdAt: Math.floor(call.startedAt / 1000), model: call.model, request: call.body };
  }

  /** A non-stream answer: a Responses upstream's as it came (its id recorded), a chat answer converted. */
  whole(body: unknown, channel: RelayChannel): unknown {
    if (!this.converted) {
      const answer = obj(body);
      if (answer.status === 'completed' || answer.status === 'incomplete') this.recordUpstream(str(answer.id), channel);
      return body;
    }
    const { response } = responsesFromChat(body, this.meta);
    this.storeConverted(response);
    return response;
  }

  /** The converter the stream goes through (`inner` is the provider's). */
  stream(inner: StreamConverter): StreamConverter {
    if (!this.converted) {
      if (inner instanceof ResponsesPassThroughStream) this.passStream = inner;
      return inner;
    }
    this.chatStream = new ResponsesStreamFromChat(inner, this.meta);
    return this.chatStream;
  }

  /** After a streamed answer: only a whole one is kept. */
  streamed(out: Delivered): void {
    if (out.ending !== 'complete') return;
    if (this.chatStream?.final) this.storeConverted(this.chatStream.final);
    else if (this.passStream?.completed) this.recordUpstream(this.passStream.responseId, out.channel);
  }

  private storing(): boolean {
    return this.call.body.store !== false;
  }

  private storeConverted(response: JsonObject): void {
    if (!this.storing()) return;
    const input = [...(this.call.responses?.history ?? []), ...inputItems(this.call.body.input)];
    const output = arr(response.output).filter(isRecord);
    responsesStore(this.rt).save({ id: this.meta.id, tokenId: this.call.caller.tokenId, userId: this.call.caller.userId, channelId: 0, model: this.call.model, data: { input, output, response } });
  }

  private recordUpstream(id: string | undefined, channel: RelayChannel): void {
    if (!id || !this.storing()) return;
    responsesStore(this.rt).save({ id, tokenId: this.call.caller.tokenId, userId: this.call.caller.userId, channelId: channel.id, model: this.call.model, data: undefined });
  }
}
