import { escapeHtml, type MailOutbox } from '@bugtrail/platform';
import type { ResetMailer } from './people.routes.js';

/**
 * The forgot-password mail: the one-time link, how long it works, and what to do if it was
 * not you. Through the outbox: an SMTP server that is down, or a restart, delays it (the mail
 * reactor's next pass sends it); it is dropped unsent once the link has expired. The link
 * points at PUBLIC_URL: made only when it is set (write-api/src/app.ts).
 */
export function resetMailer(outbox: MailOutbox, publicUrl: string): ResetMailer {
  return {
    async sendResetLink({ to, name, token, expiresAt, position }) {
      // PUBLIC_URL only, never the request's Host (api.md "Second round of safety").
      const url = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      const greeting = name ? `Hello ${name},` : 'Hello,';
      const until = expiresAt.toUTCString();
      await outbox.enqueue(
        {
          to,
          subject: 'Reset your Bugtrail password',
          text: [
            greeting,
            '',
            'Someone (we hope you) asked to reset the password of your Bugtrail account.',
            'Open this link to choose a new one. It works once, until ' + `${until}:`,
            '',
            url,
            '',
            'If it was not you, ignore this mail: your password stays as it is.',
          ].join('\n'),
          html:
            `<p>${escapeHtml(greeting)}</p>` +
            '<p>Someone (we hope you) asked to reset the password of your Bugtrail account.</p>' +
            `<p><a href="${escapeHtml(url)}">Choose a new password</a>. The link works once, until ${escapeHtml(until)}.</p>` +
            '<p>If it was not you, ignore this mail: your password stays as it is.</p>',
          ...(position ? { messageId: `<password-reset-${position}@bugtrail>` } : {}),
        },
        expiresAt,
      );
    },
  };
}
