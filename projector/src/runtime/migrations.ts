import type { Position } from '@bugtrail/eventstore';
import { type ColumnType, type Generated, type Kysely, type Migration, sql } from 'kysely';
import { ensureAnalystRole } from '../analytics/analytics.js';

/** The projector's own tables (schema `projector`), as the runtime queries them. */
export type ProjectorTables = {
  'projector.checkpoints': {
    name: string;
    position: Position;
    version: number;
    updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  'projector.changes': {
    position: Position;
    topics: string[];
    created_at: Generated<Date>;
  };
};

/**
 * The projector's own tables. Read-model tables are not migrated here: each
 * projection is versioned and rebuilt from the events when its version changes
 * (docs/adr/003-read-models-are-rebuilt-not-migrated.md).
 */
export const projectorMigrations: Record<string, Migration> = {
  '0200_projector_checkpoints': {
    async up(db: Kysely<unknown>) {
      await sql`create schema if not exists projector`.execute(db);
      await sql`create schema if not exists rm`.execute(db);
      await sql`create table projector.checkpoints (
        name text primary key,
        position text not null,
        version int not null,
        updated_at timestamptz not null default now()
      )`.execute(db);
      // Recent topics by position, so a live client that reconnects can resume (bounded).
      await sql`create table projector.changes (
        position text primary key,
        topics text[] not null,
        created_at timestamptz not null default now()
      )`.execute(db);
    },
  },
  // api.md "Analysts": the SQL users' role, SELECT on schema analytics only (its views come with the read models).
  '0210_analyst_role': {
    async up(db: Kysely<unknown>) {
      await ensureAnalystRole(db);
    },
  },
  // Trigram similarity for the triage suggestions' likely duplicates (ADR 019). A trusted
  // extension (PostgreSQL 13+): the database's owner may create it, no superuser needed.
  '0220_pg_trgm': {
    async up(db: Kysely<unknown>) {
      await sql`create extension if not exists pg_trgm`.execute(db);
    },
  },
};
