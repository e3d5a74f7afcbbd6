/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps every message it
 * receives, decoded enough for tests: envelope, headers, subject and the HTML body.
 * Plain SMTP by default (STARTTLS hidden), or implicit TLS with the package's test
 * certificate; optional AUTH with one fixed account.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  /** Envelope sender and recipients (MAIL FROM / RCPT TO). */
  from: string;
  to: string[];
  /** Header names lowercased, folded lines joined, encoded words decoded. */
  headers: Record<string, string>;
  subject: string;
  /** The body after its transfer encoding was undone. */
  html: string;
  /** Whether the session ran over TLS. */
  secure: boolean;
  /** Login used for the session, when there was one. */
  user?: string;
}

export interface FakeSmtp {
  port: number;
  messages: CapturedMail[];
  /** Resolves with the next message for `to` (or already received and not yet taken). */
  nextMail(to: string, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

export interface FakeSmtpOptions {
  /** Implicit TLS (as on port 465). */
  secure?: boolean;
  /** When set, AUTH is required and must match. */
  account?: { user: string; pass: string };
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`); whitespace between two is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const body = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(body.slice(i + 1, i + 3))) {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(body[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Parses a single-part message as nodemailer writes an HTML-only mail. */
export function parseMessage(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const rawBody = split < 0 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  const body = encoding === 'base64' ? Buffer.from(rawBody.replace(/\s+/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? decodeQuotedPrintable(rawBody) : rawBody;
  return { headers, body };
}

/** Addresses compare case-insensitively (clients may lowercase the domain). */
function addressedTo(mail: CapturedMail, to: string): boolean {
  return mail.to.some((r) => r.toLowerCase() === to.toLowerCase());
}

export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const messages: CapturedMail[] = [];
  const waiting: Array<{ to: string; resolve: (m: CapturedMail) => void }> = [];
  const taken = new Set<CapturedMail>();

  const deliver = (mail: CapturedMail) => {
    messages.push(mail);
    const i = waiting.findIndex((w) => addressedTo(mail, w.to));
    if (i >= 0) {
      taken.add(mail);
      waiting.splice(i, 1)[0]!.resolve(mail);
    }
  };

  const server = new SMTPServer({
    secure: options.secure ?? false,
    hideSTARTTLS: true,
    authOptional: !options.account,
    allowInsecureAuth: true,
    disabledCommands: options.account ? [] : ['AUTH'],
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = options.account && auth.username === options.account.user && auth.password === options.account.pass;
      if (!ok) return callback(new Error('535 Authentication credentials invalid'));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const { headers, body } = parseMessage(Buffer.concat(chunks).toString('utf8'));
        deliver({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          headers,
          subject: headers.subject ?? '',
          html: body,
          secure: session.secure,
          ...(typeof session.user === 'string' ? { user: session.user } : {}),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    messages,
    nextMail(to, timeoutMs = 5000) {
      const ready = messages.find((m) => !taken.has(m) && addressedTo(m, to));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const entry = { to, resolve: (m: CapturedMail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(new Error(`no mail for ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(entry);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
