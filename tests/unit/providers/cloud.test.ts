/**
 * The pure pieces of the Bedrock and Vertex providers: keys, model ids and regions, and the
 * AWS event-stream decoder fed the way a socket delivers bytes (messages split and joined).
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import { describe, expect, it } from 'vitest';
import { EventStreamDecoder } from '../../../src/server/relay/providers/bedrock/event-stream';
import { bedrockKey, bedrockModelId } from '../../../src/server/relay/providers/bedrock/api';
import { ChannelKeyError } from '../../../src/server/relay/providers/types';
import { vertexClaudeModel, vertexRegion } from '../../../src/server/relay/providers/vertex/api';
import { serviceAccount } from '../../../src/server/relay/providers/vertex/service-account';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });

function event(type: string, payload: unknown): Uint8Array {
  return codec.encode({ headers: { ':event-type': str(type), ':message-type': str('event'), ':content-type': str('application/json') }, body: fromUtf8(JSON.stringify(payload)) });
}

describe('Bedrock keys and model ids', () => {
  it('reads AK|SK|region and ApiKey|region; refuses anything else with a ChannelKeyError', () => {
    expect(bedrockKey(' AKIA1 | secret/+x | eu-west-1 ')).toEqual({ kind: 'sigv4', accessKeyId: 'AKIA1', secretAccessKey: 'secret/+x', region: 'eu-west-1' });
    expect(bedrockKey('bedrock-key|us-west-2')).toEqual({ kind: 'api-key', apiKey: 'bedrock-key', region: 'us-west-2' });
    for (const bad of ['AKIA1|secret', 'AKIA1||us-east-1', 'a|b|c|us-east-1', 'AKIA1|secret|not a region', '']) {
      expect(() => bedrockKey(bad), bad).toThrow(ChannelKeyError);
    }
  });

  it('maps names to ids with the region group prefix where cross-region inference offers the model', () => {
    expect(bedrockModelId('claude-3-5-sonnet-20241022', 'us-east-1')).toBe('us.anthropic.claude-3-5-sonnet-20241022-v2:0');
    expect(bedrockModelId('claude-3-5-sonnet-20241022', 'ap-northeast-1')).toBe('apac.anthropic.claude-3-5-sonnet-20241022-v2:0');
    // Not offered across regions in Europe: the plain id.
    expect(bedrockModelId('claude-3-5-sonnet-20241022', 'eu-central-1')).toBe('anthropic.claude-3-5-sonnet-20241022-v2:0');
    expect(bedrockModelId('claude-2.1', 'us-east-1')).toBe('anthropic.claude-v2:1');
    expect(bedrockModelId('nova-lite-v1:0', 'eu-west-3')).toBe('eu.amazon.nova-lite-v1:0');
    expect(bedrockModelId('mistral.mistral-large-2402-v1:0', 'us-east-1')).toBe('mistral.mistral-large-2402-v1:0');
  });
});

describe('Bedrock event-stream decoder', () => {
  it('decodes InvokeModel chunks byte by byte and Converse events, and ends cleanly only between messages', () => {
    const inner = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'héllo' } };
    const bytes = Buffer.concat([
      event('chunk', { bytes: Buffer.from(JSON.stringify(inner)).toString('base64'), p: 'ab' }),
      event('chunk', { bytes: Buffer.from('{"type":"message_stop"}').toString('base64') }),
    ]);
    const decoder = new EventStreamDecoder('invoke');
    const events = [];
    for (const byte of bytes) events.push(...decoder.push(Uint8Array.of(byte)));
    expect(events).toEqual([{ data: JSON.stringify(inner) }, { data: '{"type":"message_stop"}' }]);
    expect(decoder.end()).toEqual([]);

    const converse = new EventStreamDecoder('converse');
    const whole = Buffer.concat([event('messageStart', { role: 'assistant' }), event('metadata', { usage: { inputTokens: 3, outputTokens: 1 } })]);
    expect(converse.push(whole.subarray(0, whole.length - 5))).toEqual([{ event: 'messageStart', data: '{"role":"assistant"}' }]);
    expect(() => converse.end()).toThrow(/inside a message/);
  });

  it('turns exceptions into Claude-shaped error events and refuses corrupt framing', () => {
    const exception = codec.encode({ headers: { ':exception-type': str('throttlingException'), ':message-type': str('exception') }, body: fromUtf8('{"message":"slow down"}') });
    expect(new EventStreamDecoder('invoke').push(exception)).toEqual([{ event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'throttlingException', message: 'slow down' } }) }]);
    const corrupt = Buffer.from(event('chunk', { bytes: '' }));
    corrupt[corrupt.length - 1] ^= 0xff;
    expect(() => new EventStreamDecoder('invoke').push(corrupt)).toThrow();
    expect(() => new EventStreamDecoder('invoke').push(Buffer.from([0, 0, 0, 3, 0, 0, 0, 0]))).toThrow(/malformed/);
  });
});

describe('Vertex regions, model names and keys', () => {
  it('reads the region of a requested model from `other`', () => {
    expect(vertexRegion('us-east5', 'anything')).toBe('us-east5');
    const table = JSON.stringify({ default: 'us-central1', 'claude-3-5-sonnet-20240620': 'europe-west1' });
    expect(vertexRegion(table, 'claude-3-5-sonnet-20240620')).toBe('europe-west1');
    expect(vertexRegion(table, 'gemini-2.0-flash')).toBe('us-central1');
    expect(vertexRegion('{"gemini-1.5-pro": "asia-east1"}', 'gemini-2.0-flash')).toBe('global');
  });

  it('names Claude models the Vertex way', () => {
    expect(vertexClaudeModel('claude-3-5-sonnet-20240620')).toBe('claude-3-5-sonnet@20240620');
    expect(vertexClaudeModel('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-v2@20241022');
    expect(vertexClaudeModel('claude-sonnet-4@20250514')).toBe('claude-sonnet-4@20250514');
  });

  it('takes a service account JSON key only', () => {
    const key = JSON.stringify({ project_id: 'p', client_email: 'a@p.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n' });
    expect(serviceAccount(key)).toMatchObject({ projectId: 'p', tokenUri: 'https://oauth2.googleapis.com/token' });
    for (const bad of ['AIzaSy-an-api-key', '{}', JSON.stringify({ project_id: 'p', client_email: 'a@b' })]) expect(() => serviceAccount(bad), bad).toThrow(ChannelKeyError);
  });
});
