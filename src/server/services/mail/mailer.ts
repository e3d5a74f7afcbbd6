/**
 * Sends one HTML mail through the SMTP server of the settings page. Used by verification
 * codes and password resets, and by the quota-warning notifier.
 *
 * Failures become an AppError whose message is the SMTP client's own text (what the
 * reference shows the operator), with the SMTP password scrubbed should a server echo it.
 */
import { packageOnFirstUse } from '../../plumbing/on-first-use';
import { AppError, MSG } from '../../errors';
import { readSmtpSettings, transportOptions, type OptionReader } from './smtp-settings';

const nodemailer = packageOnFirstUse<typeof import('nodemailer')>('nodemailer');

export const SMTP_NOT_CONFIGURED = 'SMTP 服务器未配置';
export const SMTP_BAD_ACCOUNT = 'invalid SMTP account';

export interface MailMessage {
  /** One address, or several separated by `;`. */
  to: string;
  subject: string;
  /** The whole body, HTML. */
  html: string;
}

/** Splits `a@x.com; b@y.com` into addresses. */
export function splitRecipients(to: string): string[] {
  return to
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

function scrub(text: string, secret: string): string {
  return secret ? text.split(secret).join('***') : text;
}

export async function sendMail(options: OptionReader, message: MailMessage): Promise<void> {
  const settings = readSmtpSettings(options);
  if (!settings.host) throw new AppError(SMTP_NOT_CONFIGURED);
  if (!settings.fromAddress.includes('@')) throw new AppError(SMTP_BAD_ACCOUNT);
  const recipients = splitRecipients(message.to);
  if (recipients.length === 0) throw new AppError(MSG.invalidParams);
  const transport = nodemailer().createTransport(transportOptions(settings));
  try {
    await transport.sendMail({
      from: { name: settings.fromName, address: settings.fromAddress },
      to: recipients,
      subject: message.subject,
      html: message.html,
    });
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    throw new AppError(scrub(text, settings.password) || '邮件发送失败');
  } finally {
    transport.close();
  }
}
