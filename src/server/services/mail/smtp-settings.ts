/**
 * The SMTP options (docs/accounts.md#mail-delivery) turned into nodemailer transport options. Read at each
 * send, so a change in the settings page applies to the next mail without a restart.
 */
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { OptionsService } from '../options/options.service';

export interface SmtpSettings {
  host: string;
  port: number;
  /** Login name; empty: send without authentication (a local relay). */
  account: string;
  /** The envelope and header sender: SMTPFrom, else SMTPAccount. */
  fromAddress: string;
  /** Shown before the address in From: the site's SystemName. */
  fromName: string;
  password: string;
  /** Implicit TLS from the first byte (port 465 or SMTPSSLEnabled); else opportunistic STARTTLS. */
  implicitTls: boolean;
}

/** The part of the options store the mailer reads. */
export type OptionReader = Pick<OptionsService, 'get' | 'number' | 'bool'>;

export function readSmtpSettings(options: OptionReader): SmtpSettings {
  const port = options.number('SMTPPort') || 587;
  const account = options.get('SMTPAccount').trim();
  return {
    host: options.get('SMTPServer').trim(),
    port,
    account,
    fromAddress: options.get('SMTPFrom').trim() || account,
    fromName: options.get('SystemName'),
    password: options.get('SMTPToken'),
    implicitTls: port === 465 || options.bool('SMTPSSLEnabled'),
  };
}

/** Microsoft's servers refuse AUTH PLAIN and want AUTH LOGIN (as the reference does). */
function needsAuthLogin(settings: SmtpSettings): boolean {
  return /outlook|onmicrosoft/i.test(settings.account) || settings.host === 'smtp.azurecomm.net';
}

const SECOND = 1000;

export function transportOptions(settings: SmtpSettings): SMTPTransport.Options {
  return {
    host: settings.host,
    port: settings.port,
    secure: settings.implicitTls,
    // The reference does not verify certificates on implicit TLS (self-hosted relays on 465
    // often use self-signed ones); STARTTLS keeps the normal verification.
    ...(settings.implicitTls ? { tls: { rejectUnauthorized: false } } : {}),
    ...(settings.account ? { auth: { user: settings.account, pass: settings.password } } : {}),
    ...(needsAuthLogin(settings) ? { authMethod: 'LOGIN' } : {}),
    // A console request waits for the mail: never let a dead server hang it for minutes.
    connectionTimeout: 10 * SECOND,
    greetingTimeout: 10 * SECOND,
    socketTimeout: 30 * SECOND,
  };
}
