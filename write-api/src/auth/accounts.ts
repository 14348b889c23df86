import { type Actor, type Role, streams, type UserRef, userDecider } from '@bugtrail/domain';
import type { CommandHandler } from '@bugtrail/eventstore';
import type pg from 'pg';

/**
 * The write side's own record of who exists: `auth.credentials` (email, password
 * hash, role) plus the name and image every answer shows. write-api keeps it in
 * step with the events it appends (register, profile update), so commands decide
 * "is this a developer, a registered user" and answers name people without ever
 * reading a read model.
 */
export class Accounts {
  constructor(private readonly pool: pg.Pool) {}

  /** Rows made before names were kept here get them from their user streams, once. */
  async backfill(commands: CommandHandler): Promise<number> {
    const { rows } = await this.pool.query<{ user_id: string }>(
      'select user_id from auth.credentials where name is null',
    );
    for (const { user_id } of rows) {
      const { state } = await commands.load(streams.user(user_id), userDecider);
      if (state.status !== 'registered') continue;
      await this.pool.query('update auth.credentials set name = $2, profile_image_url = $3 where user_id = $1', [
        user_id,
        state.name,
        state.profileImageURL,
      ]);
    }
    return rows.length;
  }

  /** Which of these ids are developers. */
  async developers(ids: readonly string[]): Promise<string[]> {
    return this.withRole(ids, 'developer');
  }

  /** Which of these ids are registered users. */
  async registered(ids: readonly string[]): Promise<string[]> {
    return this.withRole(ids, null);
  }

  /** Names and images of these users (unknown ids are left out). */
  async refs(ids: Iterable<string>): Promise<Map<string, UserRef>> {
    const list = [...new Set(ids)];
    if (list.length === 0) return new Map();
    const { rows } = await this.pool.query<{ user_id: string; name: string | null; profile_image_url: string | null }>(
      'select user_id, name, profile_image_url from auth.credentials where user_id = any($1::text[])',
      [list],
    );
    return new Map(
      rows.map((r) => [r.user_id, { id: r.user_id, name: r.name ?? '', profileImageURL: r.profile_image_url }]),
    );
  }

  /**
   * Role, name and image of these users in one read (unknown ids are left out): a
   * command that checks who is a developer and then names people in its answer.
   */
  async people(ids: Iterable<string>): Promise<Map<string, UserRef & { role: Role }>> {
    const list = [...new Set(ids)];
    if (list.length === 0) return new Map();
    const { rows } = await this.pool.query<{
      user_id: string;
      role: Role;
      name: string | null;
      profile_image_url: string | null;
    }>('select user_id, role, name, profile_image_url from auth.credentials where user_id = any($1::text[])', [list]);
    return new Map(
      rows.map((r) => [
        r.user_id,
        { id: r.user_id, name: r.name ?? '', profileImageURL: r.profile_image_url, role: r.role },
      ]),
    );
  }

  /** Roles and names of these users (unknown ids are left out): who may be mentioned on a bug. */
  async roles(ids: Iterable<string>): Promise<Record<string, { role: Role; name: string }>> {
    const list = [...new Set(ids)];
    if (list.length === 0) return {};
    const { rows } = await this.pool.query<{ user_id: string; role: Role; name: string | null }>(
      'select user_id, role, name from auth.credentials where user_id = any($1::text[])',
      [list],
    );
    return Object.fromEntries(rows.map((r) => [r.user_id, { role: r.role, name: r.name ?? '' }]));
  }

  /**
   * The active users with these emails (any case), as actors with their role as it is now,
   * by lower-case email: who a commit's author is (code links).
   */
  async activeActorsByEmail(emails: Iterable<string>): Promise<Map<string, Actor>> {
    const list = [...new Set([...emails].map((e) => e.toLowerCase()))];
    if (list.length === 0) return new Map();
    const { rows } = await this.pool.query<{ user_id: string; role: Role; name: string | null; email: string }>(
      `select user_id, role, name, lower(email) as email from auth.credentials
       where lower(email) = any($1::text[]) and deactivated_at is null`,
      [list],
    );
    return new Map(rows.map((r) => [r.email, { id: r.user_id, role: r.role, ...(r.name ? { name: r.name } : {}) }]));
  }

  async exists(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('select 1 from auth.credentials where user_id = $1', [id]);
    return Boolean(rowCount);
  }

  private async withRole(ids: readonly string[], role: string | null): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<{ user_id: string }>(
      'select user_id from auth.credentials where user_id = any($1::text[]) and ($2::text is null or role = $2)',
      [[...new Set(ids)], role],
    );
    return rows.map((r) => r.user_id);
  }
}
