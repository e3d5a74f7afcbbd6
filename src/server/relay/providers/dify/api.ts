/**
 * Dify's app API: chat apps and chatflows answer at `/v1/chat-messages` (the reference always
 * uses it: its other bot types are disabled there), authorised by the app's API key as Bearer.
 */
import { bearerJsonHeaders } from '../common/headers';
import { joinUrl } from '../common/urls';
import type { Target } from '../types';

export function difyChatUrl(target: Target): string {
  return joinUrl(target.baseUrl, '/v1/chat-messages');
}

export function difyHeaders(target: Target, stream: boolean): Record<string, string> {
  return bearerJsonHeaders(target.key, stream);
}
