import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMail, splitRecipients } from '../../src/server/services/mail/mailer';
import type { OptionReader } from '../../src/server/services/mail/smtp-settings';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp';

/** The options store as the mailer sees it, over a plain map. */
function options(values: Record<string, string>): OptionReader {
  const all: Record<string, string> = {
    SMTPServer: '',
    SMTPPort: '587',
    SMTPAccount: '',
    SMTPFrom: '',
    SMTPToken: '',
    SMTPSSLEnabled: 'false',
    SystemName: 'Switchyard',
    ...values,
  };
  return {
    get: (key) => all[key] ?? '',
    number: (key) => Number(all[key]),
    bool: (key) => all[key] === 'true',
  };
}

const message = { to: 'user@example.com', subject: '测试 subject', html: '<p>你好 <strong>world</strong></p>' };

describe('sendMail', () => {
  let plain: FakeSmtp;
  let tls: FakeSmtp;
  const account = { user: 'sender@example.com', pass: 'p4ss-w0rd-secret' };

  beforeAll(async () => {
    plain = await startFakeSmtp({ account });
    tls = await startFakeSmtp({ secure: true, account });
  });

  afterAll(async () => {
    await plain?.close();
    await tls?.close();
  });

  it('refuses to send without a server or with a sender that is not an address', async () => {
    await expect(sendMail(options({}), message)).rejects.toThrow('SMTP 服务器未配置');
    await expect(sendMail(options({ SMTPServer: '127.0.0.1', SMTPAccount: 'nobody' }), message)).rejects.toThrow('invalid SMTP account');
  });

  it('sends HTML with the site name as sender, falling back to the account address', async () => {
    await sendMail(options({ SMTPServer: '127.0.0.1', SMTPPort: String(plain.port), SMTPAccount: account.user, SMTPToken: account.pass }), message);
    const mail = await plain.nextMail('user@example.com');
    expect(mail.secure).toBe(false);
    expect(mail.user).toBe(account.user);
    expect(mail.from).toBe(account.user);
    expect(mail.headers.from).toMatch(/^"?Switchyard"? <sender@example\.com>$/);
    expect(mail.subject).toBe('测试 subject');
    expect(mail.headers['content-type']).toMatch(/^text\/html; charset=utf-8/i);
    expect(mail.html).toContain('<p>你好 <strong>world</strong></p>');
  });

  it('uses implicit TLS when SMTPSSLEnabled is on and delivers to every ;-separated recipient', async () => {
    const opts = options({
      SMTPServer: '127.0.0.1',
      SMTPPort: String(tls.port),
      SMTPAccount: account.user,
      SMTPToken: account.pass,
      SMTPFrom: 'noreply@example.com',
      SMTPSSLEnabled: 'true',
    });
    await sendMail(opts, { ...message, to: 'one@example.com; two@example.com ;' });
    const mail = await tls.nextMail('one@example.com');
    expect(mail.secure).toBe(true);
    expect(mail.to).toEqual(['one@example.com', 'two@example.com']);
    expect(mail.from).toBe('noreply@example.com');
  });

  it('reports a refused login without the password', async () => {
    const opts = options({ SMTPServer: '127.0.0.1', SMTPPort: String(plain.port), SMTPAccount: account.user, SMTPToken: 'wrong-secret-value' });
    const err = await sendMail(opts, message).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/\S/);
    expect(err?.message).not.toContain('wrong-secret-value');
  });

  it('splits recipient lists', () => {
    expect(splitRecipients(' a@x.com;b@y.com ; ;')).toEqual(['a@x.com', 'b@y.com']);
  });
});
