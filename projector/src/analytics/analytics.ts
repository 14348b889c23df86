import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { ANALYST_ROLE, ANALYTICS_SCHEMA, type AnalyticsView, analyticsViews } from './analytics.views.js';

/** A string as an SQL literal (the texts here are ours; quotes doubled all the same). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

function viewStatements(view: AnalyticsView): string[] {
  const name = `${ident(ANALYTICS_SCHEMA)}.${ident(view.name)}`;
  return [
    `drop view if exists ${name}`,
    `create view ${name} (${view.columns.map((c) => ident(c.name)).join(', ')}) as ${view.query}`,
    `comment on view ${name} is ${literal(view.comment)}`,
    ...view.columns.map((c) => `comment on column ${name}.${ident(c.name)} is ${literal(c.comment)}`),
  ];
}

/**
 * (Re)creates every analytics view with its comments and grants, in one round trip. Run at
 * start once the read models exist, and inside a rebuild's swap (dropping a read-model table
 * drops the views over it): analysts never see the schema without its views.
 */
export async function installAnalyticsViews<DB>(db: Kysely<DB>): Promise<void> {
  const statements = [
    `create schema if not exists ${ident(ANALYTICS_SCHEMA)}`,
    ...analyticsViews.flatMap(viewStatements),
    // The role is cluster-wide and may be missing (no CREATEROLE): grant only when it is there.
    `do $$ begin
       if exists (select from pg_roles where rolname = ${literal(ANALYST_ROLE)}) then
         grant usage on schema ${ident(ANALYTICS_SCHEMA)} to ${ident(ANALYST_ROLE)};
         grant select on all tables in schema ${ident(ANALYTICS_SCHEMA)} to ${ident(ANALYST_ROLE)};
       end if;
     end $$`,
  ];
  await sql.raw(statements.join(';\n')).execute(db);
}

/** The analyst role's limits: a heavy query cannot starve the product. */
export const ANALYST_LIMITS = {
  connectionLimit: 4,
  statementTimeout: '30s',
  idleInTransactionTimeout: '60s',
} as const;

/**
 * Creates `bugtrail_analyst` (or finds it, made by another database's migrations on the same
 * server) and (re)applies its limits and grants: SELECT on `analytics` only. Without the
 * privilege to manage roles it warns and leaves the analytics closed to SQL users.
 */
export async function ensureAnalystRole<DB>(db: Kysely<DB>): Promise<void> {
  const role = ident(ANALYST_ROLE);
  await sql
    .raw(`
    create schema if not exists ${ident(ANALYTICS_SCHEMA)};
    do $$
    declare
      attempt int := 0;
    begin
      -- Roles live in the whole cluster: another database's migrations may create or alter it
      -- at the same moment (a unique violation, or "tuple concurrently updated"): try again.
      loop
        begin
          if not exists (select from pg_roles where rolname = ${literal(ANALYST_ROLE)}) then
            create role ${role} login;
          end if;
          alter role ${role} with login nosuperuser nocreatedb nocreaterole noinherit noreplication nobypassrls
            connection limit ${ANALYST_LIMITS.connectionLimit};
          alter role ${role} set statement_timeout = ${literal(ANALYST_LIMITS.statementTimeout)};
          alter role ${role} set idle_in_transaction_session_timeout = ${literal(ANALYST_LIMITS.idleInTransactionTimeout)};
          alter role ${role} set default_transaction_read_only = on;
          exit;
        exception
          when insufficient_privilege then
            raise warning 'bugtrail: no privilege to create or limit role ${ANALYST_ROLE}; analytics stay closed to SQL users';
            exit;
          when duplicate_object or unique_violation or internal_error then
            attempt := attempt + 1;
            if attempt > 20 then raise; end if;
            perform pg_sleep(0.02 * attempt);
        end;
      end loop;
      if not exists (select from pg_roles where rolname = ${literal(ANALYST_ROLE)}) then return; end if;
      execute format('grant connect on database %I to ${role}', current_database());
      grant usage on schema ${ident(ANALYTICS_SCHEMA)} to ${role};
      grant select on all tables in schema ${ident(ANALYTICS_SCHEMA)} to ${role};
      alter default privileges in schema ${ident(ANALYTICS_SCHEMA)} grant select on tables to ${role};
    end $$;`)
    .execute(db);
}

/**
 * Gives the analyst role a fresh password and answers it (`bugtrail analyst-url`): a string
 * printed earlier stops working. Fails plainly when the role could not be created.
 */
export async function resetAnalystPassword<DB>(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql`select 1 from pg_roles where rolname = ${ANALYST_ROLE}`.execute(db);
  if (rows.length === 0) {
    throw new Error(
      `There is no role ${ANALYST_ROLE}: the database user Bugtrail runs as may not create roles (CREATEROLE); create it and restart`,
    );
  }
  const password = randomBytes(24).toString('base64url');
  await sql.raw(`alter role ${ident(ANALYST_ROLE)} with password ${literal(password)}`).execute(db);
  return password;
}

/** The product's connection string with the analyst's name and password: same server, database and options. */
export function analystConnectionString(databaseUrl: string, password: string): string {
  const url = new URL(databaseUrl);
  url.username = ANALYST_ROLE;
  url.password = password;
  return url.toString();
}
