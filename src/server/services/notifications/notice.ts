/**
 * A notification as the reference builds it: a type, a title, a content template with
 * `{{value}}` placeholders and the values that fill them in order. Email fills them with
 * HTML-escaped values (the template itself is HTML); a webhook receives the template, the
 * values and the filled text (our rule: substituted, unlike the reference's raw template).
 */
import { escapeHtml } from '../mail/html';

export const NOTICE_TYPE = {
  /** A user's quota fell below their warning threshold. */
  quotaExceed: 'quota_exceed',
  /** A channel was disabled or enabled automatically (to root). */
  channelUpdate: 'channel_update',
  /** A manual "test all channels" run finished (to root). */
  channelTest: 'channel_test',
} as const;

export type NoticeType = (typeof NOTICE_TYPE)[keyof typeof NOTICE_TYPE];

export interface Notice {
  type: NoticeType;
  title: string;
  /** Text with `{{value}}` placeholders (HTML allowed: it is a mail body). */
  content: string;
  values: string[];
}

const PLACEHOLDER = /\{\{value\}\}/g;

/** The content with each placeholder replaced by the next value (missing values leave it as is). */
export function fillNotice(notice: Notice, escape = false): string {
  let i = 0;
  return notice.content.replace(PLACEHOLDER, (placeholder) => {
    const value = notice.values[i++];
    if (value === undefined) return placeholder;
    return escape ? escapeHtml(value) : value;
  });
}

/** Where a failed delivery is reported (Fastify's logger fits); never with a secret in it. */
export interface NoticeLogger {
  warn(details: object, message: string): void;
}
