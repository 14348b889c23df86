import {
  type Actor,
  type ChangeRole,
  type DeactivateUser,
  type Role,
  streams,
  type UserRef,
  type UserState,
  userDecider,
} from '@bugtrail/domain';
import type { CommandHandler, Decided } from '@bugtrail/eventstore';
import type pg from 'pg';

/** The columns of a user's credentials row that follow the user's events. */
export type CredentialChanges = Readonly<{
  email?: string;
  passwordHash?: string;
  name?: string;
  profileImageURL?: string | null;
  role?: Role;
  deactivated?: boolean;
}>;

export type NewCredentials = Readonly<{
  userId: string;
  email: string;
  passwordHash: string;
  role: Role;
  name: string;
  profileImageURL: string | null;
  /** False for an account made by single sign-on: its random password was never told to anyone. */
  passwordKnown: boolean;
}>;

/** A unique key said no: a taken email. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

/**
 * The write side's own record of who exists: `auth.credentials` (email, password
 * hash, role) plus the name and image every answer shows, so commands decide "is this a
 * developer, a registered user" and answers name people without ever reading a read model.
 *
 * The one writer of the table (ADR 026): every change is made here, inside the transaction
 * of the user event that causes it (`alongside`), so the row and the events agree or neither
 * changed. Anything else only reads it.
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

  /** A new account's row, with the append of its `UserRegistered`. */
  async insert(tx: pg.ClientBase, row: NewCredentials): Promise<void> {
    await tx.query(
      `insert into auth.credentials (user_id, email, password_hash, role, name, profile_image_url, password_known)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [row.userId, row.email, row.passwordHash, row.role, row.name, row.profileImageURL, row.passwordKnown],
    );
  }

  /** Changes a user's row with the append of the event that changes them (no row: nothing). */
  async update(tx: pg.ClientBase, userId: string, changes: CredentialChanges): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [userId];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (changes.email !== undefined) set('email', changes.email);
    if (changes.passwordHash !== undefined) {
      set('password_hash', changes.passwordHash);
      sets.push('password_changed_at = now()', 'password_known = true');
    }
    if (changes.name !== undefined) set('name', changes.name);
    if (changes.profileImageURL !== undefined) set('profile_image_url', changes.profileImageURL);
    if (changes.role !== undefined) set('role', changes.role);
    if (changes.deactivated !== undefined) {
      values.push(changes.deactivated);
      sets.push(`deactivated_at = case when $${values.length} then coalesce(deactivated_at, now()) end`);
    }
    if (sets.length === 0) return;
    await tx.query(`update auth.credentials set ${sets.join(', ')} where user_id = $1`, values);
  }

  /**
   * Locks the active admins' rows, in id order, for the rest of the transaction, and answers
   * their ids: two admins demoting each other at once are then decided one after the other.
   */
  async lockActiveAdmins(tx: pg.ClientBase): Promise<string[]> {
    const { rows } = await tx.query<{ user_id: string }>(
      `select user_id from auth.credentials where role = 'admin' and deactivated_at is null order by user_id for update`,
    );
    return rows.map((r) => r.user_id);
  }

  /** The active admins' ids as they are now (no lock: what a decision starts from). */
  async activeAdmins(): Promise<string[]> {
    const { rows } = await this.pool.query<{ user_id: string }>(
      `select user_id from auth.credentials where role = 'admin' and deactivated_at is null order by user_id`,
    );
    return rows.map((r) => r.user_id);
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

/**
 * The last-admin rule, held under lock. A role change or deactivation is decided on the admins
 * as they were read; in its append's transaction their rows are locked and it is decided again on
 * them, so what the rule refuses by then (the last admin, an actor no longer admin) appends nothing.
 */
export async function decideAgainOnLockedAdmins(
  accounts: Accounts,
  tx: pg.ClientBase,
  command: ChangeRole | DeactivateUser,
  decided: Decided<UserState>,
): Promise<void> {
  const adminIds = await accounts.lockActiveAdmins(tx);
  userDecider.decide({ ...command, data: { ...command.data, adminIds } } as typeof command, decided.before);
}
