import { type Kysely, type Migration, sql } from 'kysely';

/** Platform tables: generated secrets and token revocations (write side, never events). */
export const platformMigrations: Record<string, Migration> = {
  '0100_platform_secrets': {
    async up(db: Kysely<unknown>) {
      await sql`create schema if not exists platform`.execute(db);
      await sql`create table platform.secrets (name text primary key, value text not null, created_at timestamptz not null default now())`.execute(
        db,
      );
      await sql`create table platform.token_revocations (user_id text primary key, revoked_before_ms bigint not null)`.execute(
        db,
      );
    },
  },
  '0101_mail_outbox': {
    async up(db: Kysely<unknown>) {
      // Mail that must survive a restart or an SMTP outage (MailOutbox): kept only until sent.
      await sql`create table platform.mail_outbox (
        id bigserial primary key,
        message jsonb not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        claimed_at timestamptz,
        attempts integer not null default 0
      )`.execute(db);
    },
  },
  '0102_ai_models': {
    async up(db: Kysely<unknown>) {
      // What the configured AI providers list (aiModelCatalog), as of the assistant's last start.
      await sql`create table platform.ai_models (
        id text primary key,
        provider text not null,
        listed_at timestamptz not null default now()
      )`.execute(db);
    },
  },
  '0103_api_tokens': {
    async up(db: Kysely<unknown>) {
      // Personal API tokens (auth/api-tokens.ts): a hash of each secret, never the secret.
      await sql`create table platform.api_tokens (
        id uuid primary key,
        user_id text not null,
        name text not null,
        scope text not null check (scope in ('read', 'write')),
        secret_hash text not null unique,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        last_used_at timestamptz
      )`.execute(db);
      await sql`create index api_tokens_user on platform.api_tokens (user_id, created_at desc)`.execute(db);
    },
  },
};
