/**
 * Baidu Qianfan v1 (type 15, ERNIE through wenxinworkshop): the key is `ClientId|ClientSecret`
 * (the application's API Key and Secret Key), exchanged for an access token at
 * `{base}/oauth/2.0/token` (client credentials, cached by the relay), or an access token
 * itself. The token goes in the `access_token` query parameter of every call.
 */
import { joinUrl, withQuery } from '../common/urls';
import { ChannelKeyError, type Target, type TokenGrant } from '../types';

export type BaiduKey = { clientId: string; clientSecret: string } | { accessToken: string };

export function baiduKey(key: string): BaiduKey {
  const text = key.trim();
  if (!text.includes('|')) {
    if (!text) throw new ChannelKeyError('the Baidu channel key must be ClientId|ClientSecret (API Key|Secret Key) or an access token');
    return { accessToken: text };
  }
  const parts = text.split('|');
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new ChannelKeyError('the Baidu channel key must be ClientId|ClientSecret (API Key|Secret Key) or an access token');
  return { clientId: parts[0], clientSecret: parts[1] };
}

/** The client-credentials grant of a `ClientId|ClientSecret` key, against the channel's base URL. */
export function baiduTokenGrant(target: Target, key: { clientId: string; clientSecret: string }): TokenGrant {
  return {
    secret: `baidu|${target.baseUrl}|${key.clientId}|${key.clientSecret}`,
    request: () => ({
      url: withQuery(joinUrl(target.baseUrl, '/oauth/2.0/token'), { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }),
      form: {},
      // The operator's base URL, not a URL from the key.
      fromKey: false,
    }),
  };
}

/** Model names -> wenxinworkshop endpoint names where they differ from the lower-cased name. */
const ENDPOINTS: Record<string, string> = {
  'ERNIE-4.0': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-Bot': 'completions',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Speed': 'ernie_speed',
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot-8K': 'ernie_bot_8k',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Lite-8K-0308': 'ernie-lite-8k',
  'ERNIE-Lite-8K': 'ernie-lite-8k',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'BLOOMZ-7B': 'bloomz_7b1',
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

export function isBaiduEmbeddingModel(model: string): boolean {
  return model.startsWith('Embedding') || model.startsWith('bge-large') || model.startsWith('tao-8k');
}

/** `{base}/rpc/2.0/ai_custom/v1/wenxinworkshop/{chat|embeddings}/{endpoint}` (the token added by `authorize`). */
export function baiduUrl(target: Target, model: string): string {
  const kind = isBaiduEmbeddingModel(model) ? 'embeddings' : 'chat';
  const endpoint = ENDPOINTS[model] ?? model.toLowerCase();
  return joinUrl(target.baseUrl, `/rpc/2.0/ai_custom/v1/wenxinworkshop/${kind}/${encodeURIComponent(endpoint)}`);
}
