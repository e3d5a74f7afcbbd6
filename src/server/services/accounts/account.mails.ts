/** The two account mails (the reference's wording); the validity printed is the one enforced. */
import type { MailMessage } from '../mail/mailer';
import { escapeHtml } from '../mail/html';

export function verificationMail(input: { to: string; systemName: string; code: string; validMinutes: number }): MailMessage {
  const site = escapeHtml(input.systemName);
  return {
    to: input.to,
    subject: `${input.systemName}邮箱验证邮件`,
    html: `<p>您好，你正在进行${site}邮箱验证。</p>` + `<p>您的验证码为: <strong>${escapeHtml(input.code)}</strong></p>` + `<p>验证码 ${input.validMinutes} 分钟内有效，如果不是本人操作，请忽略。</p>`,
  };
}

export function resetMail(input: { to: string; systemName: string; link: string; validMinutes: number }): MailMessage {
  const site = escapeHtml(input.systemName);
  const link = escapeHtml(input.link);
  return {
    to: input.to,
    subject: `${input.systemName}密码重置`,
    html:
      `<p>您好，你正在进行${site}密码重置。</p>` +
      `<p>点击 <a href="${link}">此处</a> 进行密码重置。</p>` +
      `<p>如果链接无法点击，请尝试点击下面的链接或将其复制到浏览器中打开：<br> ${link} </p>` +
      `<p>重置链接 ${input.validMinutes} 分钟内有效，如果不是本人操作，请忽略。</p>`,
  };
}
