import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type pg from 'pg';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { getOrCreateSecret } from './secrets.js';

export type MailMessage = Readonly<{
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A stable Message-ID (the same mail sent twice is recognisably the same). */
  messageId?: string;
  headers?: Readonly<Record<string, string>>;
}>;

/**
 * Sends mail through SMTP_URL with nodemailer. Null from `fromConfig` when SMTP is not set
 * up. A mail that must outlive an SMTP server's absence goes through `MailOutbox`.
 */
export class Mailer {
  private constructor(
    private readonly transport: Transporter,
    private readonly from: string,
  ) {}

  static fromConfig(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer | null {
    if (!config.smtpUrl) return null;
    const transport = nodemailer.createTransport(config.smtpUrl, {});
    return new Mailer(transport, config.mailFrom);
  }

  /** Sends now; throws what the SMTP server said. */
  async send(mail: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.messageId ? { messageId: mail.messageId } : {}),
      ...(mail.headers ? { headers: { ...mail.headers } } : {}),
    });
  }

  close(): void {
    this.transport.close();
  }
}

/** How long a claimed mail is left to its sender before another pass may try it (a crash mid-send). */
const CLAIM_MS = 2 * 60 * 1000;
/** A mail nobody could send for this long is dropped (a reset link has expired by then anyway). */
const DEFAULT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Mail that must not be lost (a forgot-password link): written to `platform.mail_outbox` by
 * the request that asks for it, sent by whoever drains it (the mail reactor's leader, every
 * pass). An SMTP server that is down, or a restart, only delays it: a row goes when SMTP took
 * it, and a claim left by a sender that died is taken again after two minutes (so a crash
 * between SMTP's yes and the delete can send it twice: at least once). A row past its
 * `expiresAt` is dropped unsent. Rows hold the mail's text, links included, only until sent.
 */
export class MailOutbox {
  constructor(private readonly pool: pg.Pool) {}

  async enqueue(mail: MailMessage, expiresAt?: Date): Promise<void> {
    await this.pool.query('insert into platform.mail_outbox (message, expires_at) values ($1, $2)', [
      JSON.stringify(mail),
      expiresAt ?? new Date(Date.now() + DEFAULT_LIFETIME_MS),
    ]);
  }

  /** Sends what waits, oldest first; stops at the first mail SMTP does not take. Answers how many went. */
  async drain(mailer: Mailer, logger: Logger, limit = 100): Promise<number> {
    await this.pool.query('delete from platform.mail_outbox where expires_at <= now()');
    let sent = 0;
    while (sent < limit) {
      const { rows } = await this.pool.query<{ id: string; message: MailMessage }>(
        `update platform.mail_outbox set claimed_at = now(), attempts = attempts + 1
         where id = (select id from platform.mail_outbox
                     where claimed_at is null or claimed_at < now() - make_interval(secs => $1)
                     order by id limit 1 for update skip locked)
         returning id, message`,
        [CLAIM_MS / 1000],
      );
      const row = rows[0];
      if (!row) return sent;
      try {
        await mailer.send(row.message);
      } catch (error) {
        await this.pool.query('update platform.mail_outbox set claimed_at = null where id = $1', [row.id]);
        logger.warn('mail: SMTP did not take an outbox mail; trying again', {
          subject: row.message.subject,
          error: (error as Error).message,
        });
        return sent;
      }
      await this.pool.query('delete from platform.mail_outbox where id = $1', [row.id]);
      sent += 1;
    }
    return sent;
  }
}

/** Text for HTML: the five characters that matter. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * One-click unsubscribe tokens (api.md "People": "an unsubscribe link"): the user id and an
 * HMAC of it under a secret kept in the database, so a link works without a login and names
 * nobody else. Made by the mail reactor, checked by write-api.
 */
export class UnsubscribeTokens {
  private constructor(private readonly secret: string) {}

  static async create(pool: pg.Pool): Promise<UnsubscribeTokens> {
    return new UnsubscribeTokens(
      await getOrCreateSecret(pool, 'mail_unsubscribe_secret', () => randomBytes(32).toString('base64url')),
    );
  }

  private mac(userId: string): string {
    return createHmac('sha256', this.secret).update(`unsubscribe:${userId}`).digest('base64url');
  }

  tokenFor(userId: string): string {
    return `${Buffer.from(userId).toString('base64url')}.${this.mac(userId)}`;
  }

  /** The user a token was made for, or null. */
  userOf(token: string): string | null {
    const [encoded, mac] = token.split('.');
    if (!encoded || !mac || token.length > 400) return null;
    const userId = Buffer.from(encoded, 'base64url').toString('utf8');
    const expected = Buffer.from(this.mac(userId));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
  }
}
