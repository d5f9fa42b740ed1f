import type { MailDraft } from '@/server/modules/mail';
import { escapeHtml } from '@/server/html-escape';

export type PasswordSetupMessageInput = {
  to: string;
  userName: string;
  customerId: number;
  customerName: string;
  /** Who created the account or sent the new link. */
  sender: { name: string; email: string };
  link: string;
  expiresAt: Date;
  reason: 'created' | 'resent';
};

/** The password-setup e-mail (text and HTML); the link is its only secret. */
export function passwordSetupMessage(input: PasswordSetupMessageInput): MailDraft {
  const who = `${input.sender.name} (${input.sender.email})`;
  const intro =
    input.reason === 'created'
      ? `${who} created an account for you in ${input.customerName} on Signage Console.`
      : `${who} sent you a new link to set up your password for ${input.customerName} on Signage Console.`;
  const until = input.expiresAt.toISOString().replace('T', ' ').slice(0, 16);
  const text = [
    `Hello ${input.userName},`,
    '',
    intro,
    'Choose your password here:',
    '',
    input.link,
    '',
    `The link works once and until ${until} UTC. A newer link replaces this one.`,
    'If you did not expect this message, you can ignore it.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(input.userName)},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">Choose your password</a></p>`,
    `<p>The link works once and until ${until} UTC. A newer link replaces this one.<br>If you did not expect this message, you can ignore it.</p>`,
  ].join('\n');

  return {
    customerId: input.customerId,
    to: input.to,
    subject:
      input.reason === 'created'
        ? `Your Signage Console account in ${oneLine(input.customerName)}`
        : 'Set up your Signage Console password',
    text,
    html,
    kind: 'USER_PASSWORD_SETUP',
  };
}

function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}
