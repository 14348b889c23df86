import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Write-side credentials: the one thing write-api stores outside the event store.
 * The unique email index is also how email uniqueness is enforced.
 */
export const writeApiMigrations: Record<string, Migration> = {
  '0300_auth_credentials': {
    async up(db: Kysely<unknown>) {
      await sql`create schema if not exists auth`.execute(db);
      await sql`create table auth.credentials (
        user_id text primary key,
        email text not null,
        password_hash text not null,
        role text not null,
        created_at timestamptz not null default now(),
        password_changed_at timestamptz not null default now()
      )`.execute(db);
      await sql`create unique index credentials_email_key on auth.credentials (lower(email))`.execute(db);
      await sql`create table auth.invite_codes (
        code_hash text primary key,
        created_by text not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz,
        used_by text
      )`.execute(db);
    },
  },
  '0301_auth_credentials_names': {
    async up(db: Kysely<unknown>) {
      // The name and image answers show: Accounts.backfill fills rows made before.
      await sql`alter table auth.credentials add column name text, add column profile_image_url text`.execute(db);
    },
  },
  '0302_rate_limits': {
    async up(db: Kysely<unknown>) {
      // One fixed-window counter per (bucket, key), shared by every replica (RateLimits).
      await sql`create table auth.rate_limits (
        bucket text not null,
        key text not null,
        count integer not null,
        window_start timestamptz not null,
        primary key (bucket, key)
      )`.execute(db);
      await sql`create index rate_limits_window_start on auth.rate_limits (window_start)`.execute(db);
    },
  },
  '0304_idempotency': {
    async up(db: Kysely<unknown>) {
      // Idempotency-Key records (idempotency.ts): one per (caller, key), kept 24 h.
      await sql`create schema if not exists write_api`.execute(db);
      await sql`create table write_api.idempotency_keys (
        scope text not null,
        key text not null,
        fingerprint text not null,
        claim uuid not null,
        created_at timestamptz not null default now(),
        claimed_at timestamptz not null default now(),
        status smallint,
        headers jsonb,
        body bytea,
        primary key (scope, key)
      )`.execute(db);
      await sql`create index idempotency_keys_created_at on write_api.idempotency_keys (created_at)`.execute(db);
    },
  },
  '0303_auth_mfa': {
    async up(db: Kysely<unknown>) {
      // Optional TOTP per user (mfa.ts): the secret (pending until enabled_at is set), the last
      // time step used (a code works once), and a per-user count of wrong codes.
      await sql`create table auth.mfa (
        user_id text primary key,
        secret text not null,
        enabled_at timestamptz,
        last_used_step bigint,
        failed_codes integer not null default 0,
        failed_since timestamptz,
        created_at timestamptz not null default now()
      )`.execute(db);
      // Single-use recovery codes, stored only as hashes.
      await sql`create table auth.mfa_recovery_codes (
        user_id text not null,
        code_hash text not null,
        used_at timestamptz,
        primary key (user_id, code_hash)
      )`.execute(db);
      // What a password alone buys an MFA user: a 5-minute, few-guesses ticket to /mfa/verify.
      await sql`create table auth.mfa_challenges (
        token_hash text primary key,
        user_id text not null,
        expires_at timestamptz not null,
        attempts integer not null default 0,
        used_at timestamptz
      )`.execute(db);
      await sql`create index mfa_challenges_user on auth.mfa_challenges (user_id)`.execute(db);
    },
  },
  '0310_bug_numbers': {
    async up(db: Kysely<unknown>) {
      // BugNumbers: each bug's short name, given once; a sequence never hands a number out twice.
      await sql`create sequence write_api.bug_number_seq as integer`.execute(db);
      await sql`create table write_api.bug_numbers (
        bug_id text primary key,
        number integer not null unique default nextval('write_api.bug_number_seq')
      )`.execute(db);
      await sql`alter sequence write_api.bug_number_seq owned by write_api.bug_numbers.number`.execute(db);
      // One row once the bugs reported before numbers have theirs (BugNumbers.backfill).
      await sql`create table write_api.bug_number_backfill (
        numbered integer not null,
        done_at timestamptz not null default now()
      )`.execute(db);
    },
  },
  '0311_people': {
    async up(db: Kysely<unknown>) {
      // Deactivated people cannot log in (api.md "People"); their tokens were revoked when it happened.
      await sql`alter table auth.credentials add column deactivated_at timestamptz`.execute(db);
      // Minted codes get an id the admin's list and revoke name them by (never the code itself).
      await sql`alter table auth.invite_codes add column id text, add column revoked_at timestamptz`.execute(db);
      await sql`create unique index invite_codes_id on auth.invite_codes (id)`.execute(db);
      // One-time password-reset links: only the token's hash is kept.
      await sql`create table auth.password_resets (
        token_hash text primary key,
        user_id text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      )`.execute(db);
      await sql`create index password_resets_user on auth.password_resets (user_id)`.execute(db);
    },
  },
  '0312_oidc_flows': {
    async up(db: Kysely<unknown>) {
      // Single sign-on (oidc.ts): a flow's nonce and PKCE verifier under its state's hash, and the
      // one-time code the app trades for a session, each used once and short-lived.
      await sql`create table auth.oidc_flows (
        id_hash text primary key,
        kind text not null check (kind in ('flow', 'handoff')),
        nonce text,
        code_verifier text,
        user_id text,
        expires_at timestamptz not null
      )`.execute(db);
      await sql`create index oidc_flows_expires_at on auth.oidc_flows (expires_at)`.execute(db);
    },
  },
  '0313_idempotency_owner': {
    async up(db: Kysely<unknown>) {
      // The process holding a claim (claim-owner.ts): its advisory lock tells whether it still lives.
      await sql`alter table write_api.idempotency_keys add column owner integer`.execute(db);
    },
  },
  '0314_webhooks': {
    async up(db: Kysely<unknown>) {
      // Outgoing webhooks (webhooks/): the subscriptions admins make, the messages waiting to
      // go (written by the webhook reactor beside the projector, and by ping and redeliver),
      // and the log of every attempt.
      await sql`create schema if not exists webhooks`.execute(db);
      await sql`create table webhooks.subscriptions (
        id uuid primary key,
        url text not null,
        events text[] not null,
        description text not null default '',
        active boolean not null default true,
        secret text not null,
        created_by text not null,
        created_at timestamptz not null default now(),
        failed_in_a_row integer not null default 0
      )`.execute(db);
      await sql`create table webhooks.outbox (
        id bigserial primary key,
        webhook_id uuid not null,
        message_id text not null,
        kind text not null check (kind in ('event', 'ping', 'redelivery')),
        type text not null,
        bug_id text,
        position text collate "C",
        payload text not null,
        attempt integer not null default 0,
        next_at timestamptz not null default now(),
        state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
        created_at timestamptz not null default now()
      )`.execute(db);
      // An event goes to a webhook once, however often the reactor reads it.
      await sql`create unique index outbox_event_once on webhooks.outbox (webhook_id, message_id) where kind = 'event'`.execute(
        db,
      );
      await sql`create index outbox_pending on webhooks.outbox (webhook_id, bug_id, position, id) where state = 'pending'`.execute(
        db,
      );
      await sql`create table webhooks.deliveries (
        id uuid primary key,
        webhook_id uuid not null,
        outbox_id bigint not null,
        event_id text not null,
        type text not null,
        attempt integer not null,
        status integer,
        error text,
        duration_ms integer not null,
        response text,
        at timestamptz not null default now()
      )`.execute(db);
      await sql`create index deliveries_webhook on webhooks.deliveries (webhook_id, at desc)`.execute(db);
    },
  },
  '0330_password_known': {
    async up(db: Kysely<unknown>) {
      // False for an account made by single sign-on until its owner sets a password (change or
      // reset): such a person proves who they are by a fresh sign-in instead (fresh-proof.ts).
      await sql`alter table auth.credentials add column password_known boolean not null default true`.execute(db);
    },
  },
  '0331_invitations': {
    async up(db: Kysely<unknown>) {
      // Whom a minted code signs up (issue 40): an admin, or a tester or developer an admin invited.
      await sql`alter table auth.invite_codes add column role text not null default 'admin'`.execute(db);
    },
  },
  '0340_project_keys': {
    async up(db: Kysely<unknown>) {
      // ProjectKeys: every key a project has had, given once (a rename keeps the old key its own).
      await sql`create table write_api.project_keys (
        key text primary key,
        project_id text not null,
        claimed_at timestamptz not null default now()
      )`.execute(db);
      await sql`create index project_keys_project on write_api.project_keys (project_id)`.execute(db);
    },
  },
  '0350_project_bug_numbers': {
    async up(db: Kysely<unknown>) {
      // ProjectBugNumbers: each project's last number, and each bug's number in each project it has been in.
      await sql`create table write_api.project_counters (
        project_id text primary key,
        last int not null
      )`.execute(db);
      await sql`create table write_api.project_bug_numbers (
        project_id text not null,
        bug_id text not null,
        number int not null,
        primary key (project_id, bug_id),
        unique (project_id, number)
      )`.execute(db);
    },
  },
  '0360_project_rights': {
    async up(db: Kysely<unknown>) {
      // ProjectRights: each project's privacy, access and members, for the write side's decisions on its bugs.
      await sql`create table write_api.project_rights (
        project_id text primary key,
        private boolean not null,
        access text not null,
        members text[] not null
      )`.execute(db);
    },
  },
  '0370_webhook_projects': {
    async up(db: Kysely<unknown>) {
      // A webhook narrowed to some projects' bugs (issue 35); null: every project's.
      await sql`alter table webhooks.subscriptions add column projects text[]`.execute(db);
    },
  },
  '0380_labels_and_ranks': {
    async up(db: Kysely<unknown>) {
      // Labels (issue 36): what exists, for the decisions that put one on a bug; a name is one
      // label's among those not deleted, in any case.
      await sql`create table write_api.labels (
        id text primary key,
        name text not null,
        name_key text not null,
        color text not null,
        deleted boolean not null default false
      )`.execute(db);
      await sql`create unique index labels_name on write_api.labels (name_key) where not deleted`.execute(db);
      // Which bugs carry which label: a deleted label is taken off each of them, by an event of its own.
      await sql`create table write_api.bug_labels (
        bug_id text not null,
        label_id text not null,
        primary key (bug_id, label_id)
      )`.execute(db);
      await sql`create index bug_labels_label on write_api.bug_labels (label_id)`.execute(db);
      // BugRanks: the ranks people gave bugs (the board's order), per project, for a move's neighbours.
      await sql`create table write_api.bug_ranks (
        bug_id text primary key,
        project_id text not null,
        rank text collate "C" not null
      )`.execute(db);
      await sql`create index bug_ranks_project on write_api.bug_ranks (project_id, rank)`.execute(db);
      // BugRelations: each relation once per pair (blocks: blocker → blocked), and each sub-bug's
      // parent, for the decisions that follow them (cycles, blocked closes) and the answers.
      await sql`create table write_api.bug_relations (
        from_id text not null,
        to_id text not null,
        kind text not null,
        primary key (from_id, to_id, kind)
      )`.execute(db);
      await sql`create index bug_relations_to on write_api.bug_relations (to_id, kind)`.execute(db);
      await sql`create table write_api.bug_parents (
        bug_id text primary key,
        parent_id text not null
      )`.execute(db);
      await sql`create index bug_parents_parent on write_api.bug_parents (parent_id)`.execute(db);
      // Which milestone each bug is planned into: a milestone with bugs is not deleted.
      await sql`create table write_api.bug_milestones (
        bug_id text primary key,
        milestone_id text not null
      )`.execute(db);
      await sql`create index bug_milestones_milestone on write_api.bug_milestones (milestone_id)`.execute(db);
    },
  },
  '0390_bug_states': {
    async up(db: Kysely<unknown>) {
      // The workflow state each bug chose (issue 37), written with its BugStateChanged: a state
      // that holds bugs is not removed. A status change since leaves a row stale; the count checks
      // each bug's stream before it refuses.
      await sql`create table write_api.bug_states (
        bug_id text primary key,
        project_id text not null,
        state_id text not null
      )`.execute(db);
      await sql`create index bug_states_state on write_api.bug_states (project_id, state_id)`.execute(db);
    },
  },
  '0400_sla_policies': {
    async up(db: Kysely<unknown>) {
      // The SLA policies that exist (issue 38), written with each policy event: every bug answer
      // write-api gives shows the SLA that holds for the bug.
      await sql`create table write_api.sla_policies (
        id text primary key,
        project_id text,
        name text not null,
        conditions jsonb not null,
        respond_seconds int,
        resolve_seconds int,
        created_at text not null,
        since text not null,
        deleted boolean not null default false
      )`.execute(db);
    },
  },
};
