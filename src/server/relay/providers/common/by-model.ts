/**
 * A family whose models speak different wire formats (Bedrock: Claude's Messages or Converse;
 * Vertex: Gemini, Claude or OpenAI chat) as one `Provider`: `forModel` answers the provider of
 * an upstream model, which the relay then uses for the whole attempt; the family's own methods
 * hand each call to it too, so the family works wherever a single provider is expected.
 */
import { type Provider, ProviderRequestError, type RelayMode } from '../types';

export function providerByModel(id: string, choose: (upstreamModel: string) => Provider, members: readonly Provider[], parseError: Provider['parseError']): Provider {
  const modes = new Set<RelayMode>(members.flatMap((member) => [...member.modes]));
  return {
    id,
    modes,
    forModel: choose,
    buildRequest: (mode, body, target, stream) => choose(target.upstreamModel).buildRequest(mode, body, target, stream),
    parseResponse: (mode, json, target) => choose(target.upstreamModel).parseResponse(mode, json, target),
    createStream(mode, target, client) {
      const member = choose(target.upstreamModel);
      if (!member.createStream) throw new ProviderRequestError(`${mode} does not stream`, 'not_supported');
      return member.createStream(mode, target, client);
    },
    parseError,
    async authorize(request, target, services) {
      const member = choose(target.upstreamModel);
      return member.authorize ? member.authorize(request, target, services) : request;
    },
    streamDecoder: (mode, target) => choose(target.upstreamModel).streamDecoder?.(mode, target),
  };
}
