import { escapeHtml, type Logger, type Mailer, MailOutbox, UnsubscribeTokens } from '@bugtrail/platform';
import { type Kysely, type Migration, sql } from 'kysely';
import type pg from 'pg';
import { PeriodicLeader } from '../runtime/periodic-leader.js';

const LEADER_LOCK = 7310070;
/** How often waiting mail is looked for (and a down SMTP server tried again): under the 10 s api.md allows. */
const PASS_MS = 2_000;
const DIGEST_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * The mail outbox's bookkeeping, outside the read models (a rebuild must not mail again):
 * one row per notification handed to SMTP (or skipped), the moment mailing began, and each
 * person's last digest.
 */
export const mailReactorMigrations: Record<string, Migration> = {
  '0620_mail_outbox': {
    async up(db: Kysely<unknown>) {
      await sql`create schema if not exists mail`.execute(db);
      await sql`create table mail.sent (
        notification_id text primary key,
        claimed_at timestamptz not null default now(),
        sent_at timestamptz,
        outcome text not null default 'pending'
      )`.execute(db);
      await sql`create table mail.state (name text primary key, value text not null)`.execute(db);
      await sql`create table mail.digests (user_id text primary key, last_at timestamptz not null)`.execute(db);
    },
  },
};

export type MailReactorOptions = {
  logger: Logger;
  /** Where links in mail point (PUBLIC_URL, default http://localhost:PORT). */
  baseUrl: string;
  passMs?: number;
  digestEveryMs?: number;
};

type Pending = {
  id: string;
  user_id: string;
  text: string;
  bug_id: string | null;
  chat_id: string | null;
  email: string;
  name: string;
  role: string;
  deactivated: boolean;
  /** About a bug of a private project the person is not (or no longer) a member of (issue 35). */
  hidden: boolean;
  number: number | null;
};

/**
 * Mails notifications (api.md "People"): "immediate" ones each once, "daily" ones as one
 * digest a day, never those made while the person had mail "off". One leader at a time.
 * Each notification is claimed in `mail.sent` before it is handed to SMTP, so two
 * reactors or a restart never mail it twice; an SMTP server that refuses or is down gives
 * the claim back, and the next pass (2 s later) tries again. Only a crash between the
 * claim and SMTP's answer loses a mail (at most once, as api.md asks). Mailing starts with
 * the first start that has SMTP set up: notifications made before are never mailed.
 */
export class MailReactor {
  private readonly leader: PeriodicLeader;
  private tokens: UnsubscribeTokens | null = null;
  private readonly outbox: MailOutbox;

  constructor(
    private readonly mailer: Mailer,
    private readonly pool: pg.Pool,
    private readonly options: MailReactorOptions,
  ) {
    this.outbox = new MailOutbox(pool);
    this.leader = new PeriodicLeader(pool, LEADER_LOCK, 'mail reactor', options.logger, options.passMs ?? PASS_MS, () =>
      this.runOnce(),
    );
  }

  start(): void {
    this.leader.start();
  }

  async stop(): Promise<void> {
    await this.leader.stop();
  }

  /**
   * One pass: the outbox's mail (forgot-password links, written by write-api), the immediate
   * notifications waiting, then the digests due. Answers how many mails went.
   */
  async runOnce(now = new Date()): Promise<number> {
    this.tokens ??= await UnsubscribeTokens.create(this.pool);
    const fromOutbox = await this.outbox.drain(this.mailer, this.options.logger);
    await this.pool.query(
      `insert into mail.state (name, value) values ('started_at', $1) on conflict (name) do nothing`,
      [now.toISOString()],
    );
    const { rows: state } = await this.pool.query<{ value: string }>(
      `select value from mail.state where name = 'started_at'`,
    );
    const since = state[0]?.value ?? now.toISOString();
    return fromOutbox + (await this.immediate(since)) + (await this.digests(since, now));
  }

  private pending(kind: 'immediate' | 'daily', since: string, userId?: string) {
    return this.pool.query<Pending>(
      `select n.id, n.user_id, n.text, n.bug_id, n.chat_id, u.email, u.name, u.role, u.deactivated, b.number,
         u.role not in ('admin', 'auditor') and exists (
           select 1 from rm.bugs bb join rm.projects p on p.id = bb.project_id
           where bb.id = n.bug_id and p.private
             and not exists (select 1 from rm.project_members m where m.project_id = p.id and m.user_id = n.user_id)
         ) as hidden
       from rm.notifications n
       join rm.users u on u.id = n.user_id
       left join rm.notification_bugs b on b.id = n.bug_id
       where n.mail = $1 and n.created_at >= $2::timestamptz and ($3::text is null or n.user_id = $3)
         and not exists (select 1 from mail.sent s where s.notification_id = n.id)
       order by n.position
       limit 200`,
      [kind, since, userId ?? null],
    );
  }

  /** Claims the rows; false for any another reactor claimed first. */
  private async claim(ids: readonly string[]): Promise<string[]> {
    const { rows } = await this.pool.query<{ notification_id: string }>(
      `insert into mail.sent (notification_id) select unnest($1::text[]) on conflict do nothing returning notification_id`,
      [ids],
    );
    return rows.map((r) => r.notification_id);
  }

  private async settle(ids: readonly string[], outcome: 'sent' | 'skipped'): Promise<void> {
    await this.pool.query(
      `update mail.sent set sent_at = now(), outcome = $2 where notification_id = any($1::text[])`,
      [ids, outcome],
    );
  }

  private async release(ids: readonly string[]): Promise<void> {
    await this.pool.query(`delete from mail.sent where notification_id = any($1::text[]) and sent_at is null`, [ids]);
  }

  private async immediate(since: string): Promise<number> {
    const { rows } = await this.pending('immediate', since);
    let sent = 0;
    for (const row of rows) {
      if (this.leader.isRunning && !this.leader.isLeading) break;
      const [claimed] = await this.claim([row.id]);
      if (!claimed) continue;
      if (row.deactivated || row.hidden) {
        await this.settle([row.id], 'skipped');
        continue;
      }
      try {
        await this.mailer.send(this.notificationMail(row));
      } catch (error) {
        await this.release([row.id]);
        this.options.logger.warn('mail: SMTP did not take a notification; trying again', {
          error: (error as Error).message,
        });
        return sent;
      }
      await this.settle([row.id], 'sent');
      sent += 1;
    }
    return sent;
  }

  private async digests(since: string, now: Date): Promise<number> {
    const { rows: people } = await this.pool.query<{ user_id: string; last_at: Date | null }>(
      `select distinct n.user_id, d.last_at from rm.notifications n
       left join mail.digests d on d.user_id = n.user_id
       where n.mail = 'daily' and n.created_at >= $1::timestamptz
         and not exists (select 1 from mail.sent s where s.notification_id = n.id)`,
      [since],
    );
    let sent = 0;
    for (const person of people) {
      // The first daily notification starts the person's clock: a digest a day from then.
      if (!person.last_at) {
        await this.pool.query(
          'insert into mail.digests (user_id, last_at) values ($1, $2) on conflict (user_id) do nothing',
          [person.user_id, now],
        );
        continue;
      }
      if (now.getTime() - person.last_at.getTime() < (this.options.digestEveryMs ?? DIGEST_EVERY_MS)) continue;
      const { rows } = await this.pending('daily', since, person.user_id);
      const claimed = new Set(await this.claim(rows.map((r) => r.id)));
      const hidden = rows.filter((r) => claimed.has(r.id) && r.hidden).map((r) => r.id);
      if (hidden.length > 0) await this.settle(hidden, 'skipped');
      const items = rows.filter((r) => claimed.has(r.id) && !r.hidden);
      if (items.length === 0) continue;
      if (items[0]!.deactivated) {
        await this.settle(
          items.map((r) => r.id),
          'skipped',
        );
        continue;
      }
      try {
        await this.mailer.send(this.digestMail(items));
      } catch (error) {
        await this.release([...claimed]);
        this.options.logger.warn('mail: SMTP did not take a digest; trying again', { error: (error as Error).message });
        return sent;
      }
      await this.settle(
        items.map((r) => r.id),
        'sent',
      );
      await this.pool.query('update mail.digests set last_at = $2 where user_id = $1', [person.user_id, now]);
      sent += 1;
    }
    return sent;
  }

  private linkOf(row: Pending): string {
    const base = this.options.baseUrl;
    if (row.bug_id && row.number) return `${base}/bugs/${row.number}`;
    if (row.chat_id && row.role !== 'auditor')
      return `${base}/${row.role}/chats?chat=${encodeURIComponent(row.chat_id)}`;
    return `${base}/`;
  }

  private unsubscribeUrl(userId: string): string {
    return `${this.options.baseUrl}/unsubscribe?token=${encodeURIComponent(this.tokens!.tokenFor(userId))}`;
  }

  private footer(userId: string) {
    const url = this.unsubscribeUrl(userId);
    return {
      text: `\n\n--\nYou get this because of your Bugtrail notification settings.\nStop these emails: ${url}`,
      html: `<hr><p style="color:#64748b;font-size:12px">You get this because of your Bugtrail notification settings. <a href="${escapeHtml(url)}">Unsubscribe</a></p>`,
      // RFC 8058: a client posts "List-Unsubscribe=One-Click" to the URL (write-api's POST /unsubscribe).
      headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  private notificationMail(row: Pending) {
    const link = this.linkOf(row);
    const footer = this.footer(row.user_id);
    return {
      to: row.email,
      subject: row.text,
      text: `${row.text}\n\nOpen it: ${link}${footer.text}`,
      html: `<p>${escapeHtml(row.text)}</p><p><a href="${escapeHtml(link)}">Open it in Bugtrail</a></p>${footer.html}`,
      messageId: `<notification-${row.id.replace(/[^\w.-]/g, '-')}@bugtrail>`,
      headers: footer.headers,
    };
  }

  private digestMail(rows: readonly Pending[]) {
    const first = rows[0]!;
    const footer = this.footer(first.user_id);
    const count = rows.length === 1 ? '1 notification' : `${rows.length} notifications`;
    return {
      to: first.email,
      subject: `Your Bugtrail digest: ${count}`,
      text: `${rows.map((r) => `- ${r.text}\n  ${this.linkOf(r)}`).join('\n')}${footer.text}`,
      html: `<ul>${rows.map((r) => `<li><a href="${escapeHtml(this.linkOf(r))}">${escapeHtml(r.text)}</a></li>`).join('')}</ul>${footer.html}`,
      headers: footer.headers,
    };
  }
}
