import { describe, expect, it } from 'vitest';
import { CHANNEL_TYPES, RETIRED_CHANNEL_TYPES, channelFamily, channelTypeById, isKnownChannelType } from '../../../src/shared/channel-types';
import { channelTypeSupports, providerFor, providerForChannelType, providerForFamily } from '../../../src/server/relay/providers';

/**
 * Families relayed by the task relays rather than a chat provider (Midjourney, Suno), and the
 * family of retired ids: the pipeline answers "not supported".
 */
const UNSUPPORTED = ['midjourney', 'suno', 'unsupported'];

describe('provider registry', () => {
  it('has a provider for every relayable family and none for the others', () => {
    for (const type of CHANNEL_TYPES) {
      const provider = providerForChannelType(type.id);
      if (UNSUPPORTED.includes(type.family)) expect(provider, `type ${type.id}`).toBeUndefined();
      else expect(provider?.id, `type ${type.id}`).toBe(type.family);
    }
  });

  it('lists no type it cannot relay: the last one, AI Proxy Library (21), has its provider', () => {
    expect(CHANNEL_TYPES.filter((type) => type.family === 'unsupported').map((type) => type.id)).toEqual([]);
    expect(providerForChannelType(21)?.id).toBe('aiproxy');
    expect(channelTypeSupports(21, 'chat')).toBe(true);
    expect(channelTypeSupports(21, 'embeddings')).toBe(false);
  });

  it('sends unknown type ids to the OpenAI family, as the reference does', () => {
    expect(channelFamily(999)).toBe('openai');
    expect(providerForChannelType(999)?.id).toBe('openai');
  });

  it('declares capabilities per family', () => {
    expect(channelTypeSupports(1, 'transcriptions')).toBe(true);
    expect(channelTypeSupports(14, 'messages')).toBe(true);
    expect(channelTypeSupports(1, 'messages')).toBe(false);
    expect(channelTypeSupports(24, 'embeddings')).toBe(true);
    expect(channelTypeSupports(24, 'speech')).toBe(false);
    expect(channelTypeSupports(38, 'rerank')).toBe(true);
    expect(channelTypeSupports(38, 'chat')).toBe(false);
    expect(channelTypeSupports(33, 'chat')).toBe(true);
    expect(channelTypeSupports(33, 'messages')).toBe(true);
    expect(channelTypeSupports(33, 'embeddings')).toBe(false);
    expect(channelTypeSupports(41, 'gemini')).toBe(true);
    expect(channelTypeSupports(41, 'embeddings')).toBe(false);
    expect(providerForFamily('vertex')?.id).toBe('vertex');
    expect(channelTypeSupports(34, 'chat') && channelTypeSupports(34, 'embeddings') && channelTypeSupports(34, 'rerank')).toBe(true);
    expect(channelTypeSupports(37, 'chat')).toBe(true);
    expect(channelTypeSupports(37, 'embeddings')).toBe(false);
    expect(channelTypeSupports(44, 'embeddings')).toBe(true);
    expect(channelTypeSupports(44, 'chat')).toBe(false);
    expect(channelTypeSupports(16, 'chat')).toBe(true);
    expect(channelTypeSupports(15, 'chat')).toBe(true);
    expect(channelTypeSupports(23, 'chat')).toBe(true);
    expect(channelTypeSupports(18, 'chat')).toBe(true);
    expect(channelTypeSupports(18, 'embeddings')).toBe(false);
    expect(channelTypeSupports(15, 'embeddings')).toBe(true);
    expect(channelTypeSupports(16, 'embeddings')).toBe(false);
  });

  it('relays no retired type (PaLM2), not even by the OpenAI fallback, and offers none', () => {
    expect(channelTypeById(11)).toBeUndefined();
    expect(isKnownChannelType(11)).toBe(false);
    expect(RETIRED_CHANNEL_TYPES.get(11)?.name).toContain('PaLM2');
    expect(channelFamily(11)).toBe('unsupported');
    expect(providerForChannelType(11)).toBeUndefined();
  });

  it('narrows a family to the wire format of the upstream model (Bedrock, Vertex)', () => {
    expect(providerFor(33, 'claude-3-5-sonnet-20240620')?.id).toBe('bedrock-claude');
    expect(providerFor(33, 'us.anthropic.claude-3-7-sonnet-20250219-v1:0')?.id).toBe('bedrock-claude');
    expect(providerFor(33, 'nova-pro-v1:0')?.id).toBe('bedrock-converse');
    expect(providerFor(33, 'nova-pro-v1:0')?.modes.has('messages')).toBe(false);
    expect(providerFor(41, 'gemini-2.0-flash')?.id).toBe('vertex-gemini');
    expect(providerFor(41, 'claude-3-5-sonnet-20240620')?.id).toBe('vertex-claude');
    expect(providerFor(41, 'meta/llama3-405b-instruct-maas')?.id).toBe('vertex-openapi');
    // Single-format families are their own provider.
    expect(providerFor(1, 'gpt-4o')).toBe(providerForChannelType(1));
  });

  it('gives every provider a stream converter for chat', () => {
    for (const type of CHANNEL_TYPES) {
      const provider = providerForChannelType(type.id);
      if (provider?.modes.has('chat')) expect(typeof provider.createStream, provider.id).toBe('function');
    }
  });
});
