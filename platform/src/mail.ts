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

/** How often a mail the SMTP server refused or could not take is tried again, and for how long. */
const RETRY_MS = 5_000;
const GIVE_UP_MS = 60 * 60 * 1000;

/**
 * Sends mail through SMTP_URL with nodemailer. `deliver` hands a mail over and returns at
 * once: an SMTP server that is down delays it (tried again every 5 s, for an hour), it is
 * not lost while this process runs. Null from `fromConfig` when SMTP is not set up.
 */
export class Mailer {
  private readonly pending = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(
    private readonly transport: Transporter,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  static fromConfig(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, logger: Logger): Mailer | null {
    if (!config.smtpUrl) return null;
    const transport = nodemailer.createTransport(config.smtpUrl, {});
    return new Mailer(transport, config.mailFrom, logger);
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

  /** Sends in the background, trying again until it goes or an hour has passed. */
  deliver(mail: MailMessage): void {
    const started = Date.now();
    const attempt = () => {
      if (this.closed) return;
      this.send(mail).catch((error: unknown) => {
        if (this.closed) return;
        if (Date.now() - started > GIVE_UP_MS) {
          this.logger.error('mail given up after an hour', { to: mail.to, subject: mail.subject, error });
          return;
        }
        this.logger.warn('mail not sent yet; trying again', { subject: mail.subject, error: (error as Error).message });
        const timer = setTimeout(() => {
          this.pending.delete(timer);
          attempt();
        }, RETRY_MS);
        timer.unref();
        this.pending.add(timer);
      });
    };
    attempt();
  }

  close(): void {
    this.closed = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    this.transport.close();
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
