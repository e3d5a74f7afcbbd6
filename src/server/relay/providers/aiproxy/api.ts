/**
 * AIProxy's library API: a question to one of the account's knowledge bases is a POST to
 * `/api/library/ask`, authorised by the account key as Bearer. Which knowledge base answers is
 * the channel's `other` field (its library id), as in the reference.
 */
import { bearerJsonHeaders } from '../common/headers';
import { joinUrl } from '../common/urls';
import { ChannelKeyError, type Target } from '../types';

export function aiproxyAskUrl(target: Target): string {
  return joinUrl(target.baseUrl, '/api/library/ask');
}

export function aiproxyHeaders(target: Target, stream: boolean): Record<string, string> {
  return bearerJsonHeaders(target.key, stream);
}

/** The knowledge base the channel asks: without one the upstream cannot answer, a fault of the channel. */
export function aiproxyLibraryId(target: Target): string {
  const id = target.other.trim();
  if (!id) throw new ChannelKeyError('an AI Proxy Library channel needs its knowledge base ID (the channel\'s "other" field)');
  return id;
}
