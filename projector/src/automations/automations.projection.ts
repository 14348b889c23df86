import { type AutomationEvent, type AutomationState, evolveAutomation, initialAutomationState } from '@bugtrail/domain';
import { type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import { defineProjection, type Recorded } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';

/** The live topic of the rules and their runs: read-api lets those who may read them hear it. */
export const automationsTopic = 'automations';

type Row = {
  id: string;
  state: AutomationState;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  position: string;
};
type Run = {
  position: string;
  automation_id: string;
  bug_id: string;
  trigger: string;
  trigger_event_id: string;
  at: string;
  outcomes: string;
  failed: boolean;
};
type Changes = { rules: Map<string, Row>; runs: Run[] };

const RULE_EVENTS = ['AutomationCreated', 'AutomationChanged', 'AutomationPaused', 'AutomationDeleted'] as const;
type RuleEventType = (typeof RULE_EVENTS)[number];

/** The rule events of a batch, folded over the stored rule by the domain's own evolve. */
function fold(changes: Changes, event: Recorded<RuleEventType>) {
  const id = event.data.automationId;
  const at = event.metadata.occurredAt;
  const row = changes.rules.get(id) ?? {
    id,
    state: initialAutomationState(),
    created_by: event.metadata.actorId,
    created_at: at,
    updated_at: at,
    position: event.position,
  };
  row.state = evolveAutomation(row.state, event as unknown as AutomationEvent);
  row.updated_at = at;
  changes.rules.set(id, row);
}

/** Rules (`GET /api/automations`) and each rule's run log, from the rules' streams. */
export const automationsProjection = defineProjection({
  name: 'automations',
  version: 1,
  tables: ['automations', 'automation_runs'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'automations')} (
      id text primary key,
      project_id text,
      name text not null,
      deleted boolean not null,
      state jsonb not null,
      created_by text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      position text collate "C" not null
    )`.execute(db);
    await sql`create table ${sql.id(schema, 'automation_runs')} (
      position text collate "C" primary key,
      automation_id text not null,
      bug_id text not null,
      trigger text not null,
      trigger_event_id text not null,
      at timestamptz not null,
      outcomes jsonb not null,
      failed boolean not null
    )`.execute(db);
  },

  async createIndexes(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create index ${sql.id(`${schema}_automation_runs_rule`)} on ${sql.id(schema, 'automation_runs')} (automation_id, position desc)`.execute(
      db,
    );
  },

  async load(events, { db, schema }) {
    const ids = [...new Set(events.map((e) => e.data.automationId))];
    const { rows } = await sql<Row>`select id, state, created_by, created_at::text, updated_at::text, position
      from ${sql.id(schema, 'automations')} where id = any(${ids}::text[])`.execute(db);
    return new Map(rows.map((r) => [r.id, r]));
  },
  begin: (stored: Map<string, Row>): Changes => ({ rules: new Map(stored), runs: [] }),
  on: {
    AutomationCreated: fold,
    AutomationChanged: fold,
    AutomationPaused: fold,
    AutomationDeleted: fold,
    AutomationRan(changes, event) {
      const d = event.data;
      changes.runs.push({
        position: event.position,
        automation_id: d.automationId,
        bug_id: d.bugId,
        trigger: d.trigger,
        trigger_event_id: d.triggerEventId,
        at: d.at,
        outcomes: JSON.stringify(d.outcomes),
        failed: d.outcomes.some((o) => o.outcome === 'failed'),
      });
    },
  },

  async write(changes, { db, schema, topics }) {
    if (changes.rules.size === 0 && changes.runs.length === 0) return;
    topics.add(automationsTopic);
    const rows = [...changes.rules.values()].map((r) => ({
      id: r.id,
      project_id: r.state.projectId,
      name: r.state.name,
      deleted: r.state.deleted,
      state: JSON.stringify(r.state),
      created_by: r.created_by,
      created_at: r.created_at,
      updated_at: r.updated_at,
      position: r.position,
    }));
    for (const batch of chunks(rows)) {
      await db
        .withSchema(schema)
        .insertInto('automations')
        .values(batch)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            project_id: eb.ref('excluded.project_id'),
            name: eb.ref('excluded.name'),
            deleted: eb.ref('excluded.deleted'),
            state: eb.ref('excluded.state'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
    for (const batch of chunks(changes.runs)) {
      await db
        .withSchema(schema)
        .insertInto('automation_runs')
        .values(batch)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  },
});
