import {
  type BugLinks,
  type BugState,
  bugFieldChanges,
  type CommentAddedData,
  evolveBugWith,
  type FieldDef,
  initialBugState,
  nameForUnknown,
  streams,
  toBugDto,
  type UserRef,
  type WebhookEventType,
  type WorkflowState,
  webhookTypeOf,
} from '@bugtrail/domain';
import type { EventStore, RecordedEvent } from '@bugtrail/eventstore';
import type pg from 'pg';

/** Types whose payload carries `changes` (api.md). */
const WITH_CHANGES = new Set<WebhookEventType>([
  'bug.updated',
  'bug.status_changed',
  'bug.assigned',
  'bug.checklist_changed',
]);

export type WebhookMessage = {
  eventId: string;
  type: WebhookEventType;
  bugId: string;
  /** The project the bug is in as the message shows it (a webhook's `projects` filter). */
  projectId: string;
  body: string;
};

/**
 * The body of each event's delivery (api.md "Integrations"): `{ type, timestamp, data: { bug,
 * actor, changes, comment } }`, with `bug` as an admin reads it right after the event (its
 * stream folded up to it; just before it for `bug.deleted`), built once when the event is
 * queued, so every retry and redelivery sends the same bytes. `events` are the batch's events
 * wanted by some webhook; `batch` the whole batch they come from.
 */
export async function webhookMessages(
  events: readonly RecordedEvent[],
  batch: readonly RecordedEvent[],
  store: EventStore,
  pool: pg.Pool,
): Promise<WebhookMessage[]> {
  const typed = events.filter((e) => webhookTypeOf(e.type) && (e.data as { bugId?: string }).bugId);
  if (typed.length === 0) return [];
  const bugIds = [...new Set(typed.map((e) => (e.data as { bugId: string }).bugId))];
  const histories = new Map<string, RecordedEvent[]>();
  // A bug born in this batch is all here (a new report, the common case): no read needed.
  const inBatch = new Map<string, RecordedEvent[]>();
  for (const e of batch) {
    const stream = inBatch.get(e.streamId);
    if (stream) stream.push(e);
    else inBatch.set(e.streamId, [e]);
  }
  const toRead: string[] = [];
  for (const bugId of bugIds) {
    const here = inBatch.get(streams.bug(bugId)) ?? [];
    const whole = here.every((e, i) => e.revision === i);
    if (whole && here.length > 0) histories.set(bugId, here);
    else toRead.push(bugId);
  }
  // The others' streams, a few reads at a time.
  let next = 0;
  const reader = async () => {
    for (let bugId = toRead[next++]; bugId; bugId = toRead[next++]) {
      histories.set(bugId, await store.readStream(streams.bug(bugId)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, toRead.length) }, reader));

  const userIds = new Set<string>();
  for (const e of typed) if (e.metadata.actorId) userIds.add(e.metadata.actorId);
  const states = new Map<string, BugState[]>();
  for (const [bugId, history] of histories) {
    // The bug after each revision: states[r] is the bug once revision r is folded in.
    const after: BugState[] = [];
    let state = initialBugState();
    for (const event of history) {
      state = evolveBugWith(state, event);
      after[event.revision] = state;
      if (state.kind === 'reported') {
        userIds.add(state.reporterId);
        for (const id of state.assigneeIds) userIds.add(id);
        for (const item of state.checklist) if (item.completedBy) userIds.add(item.completedBy);
      }
    }
    states.set(bugId, after);
  }
  const users = await usersById(pool, [...userIds]);
  const projectIds = new Set<string>();
  for (const after of states.values()) for (const s of after) if (s?.kind === 'reported') projectIds.add(s.projectId);
  const labelIds = new Set<string>();
  for (const after of states.values())
    for (const s of after) if (s?.kind === 'reported') for (const l of s.labelIds) labelIds.add(l);
  const [projects, labels, links] = await Promise.all([
    projectsById(pool, [...projectIds]),
    labelsById(pool, [...labelIds]),
    linksById(pool, [...states.keys()]),
  ]);

  const messages: WebhookMessage[] = [];
  for (const e of typed) {
    const type = webhookTypeOf(e.type)!;
    const bugId = (e.data as { bugId: string }).bugId;
    const after = states.get(bugId) ?? [];
    const before = after[e.revision - 1] ?? initialBugState();
    const now = after[e.revision] ?? before;
    const shown = type === 'bug.deleted' ? before : now;
    if (shown.kind !== 'reported') continue;
    const actorId = e.metadata.actorId;
    const data: Record<string, unknown> = {
      bug: toBugDto(
        shown,
        type === 'bug.deleted' ? e.revision - 1 : e.revision,
        (id) => users.get(id),
        (id) => projects.get(id),
        (id) => labels.get(id),
        links.get(bugId),
        (id) => projects.get(id),
      ),
      actor: actorId
        ? { _id: actorId, name: users.get(actorId)?.name ?? nameForUnknown(actorId) }
        : e.metadata.actorName
          ? { _id: null, name: e.metadata.actorName }
          : null,
    };
    if (WITH_CHANGES.has(type)) data.changes = bugFieldChanges(before, now);
    if (type === 'comment.created') {
      const comment = e.data as CommentAddedData;
      data.comment = {
        _id: comment.commentId,
        body: comment.body,
        author: data.actor,
        createdAt: e.metadata.occurredAt,
      };
    }
    messages.push({
      eventId: e.id,
      type,
      bugId,
      projectId: shown.projectId,
      body: JSON.stringify({ type, timestamp: e.metadata.occurredAt, data }),
    });
  }
  return messages;
}

/** Each project's key and name now, as the bugs' answers show them. */
async function projectsById(
  pool: pg.Pool,
  ids: string[],
): Promise<Map<string, { key: string; name: string; fields: FieldDef[]; states: WorkflowState[] }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{
    id: string;
    key: string;
    name: string;
    fields: FieldDef[];
    states: WorkflowState[];
  }>('select id, key, name, fields, states from rm.bug_projects where id = any($1::text[])', [ids]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** Relations and sub-bugs as the bugs read model has them now (facts of other bugs). */
async function linksById(pool: pg.Pool, ids: string[]): Promise<Map<string, BugLinks>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{
    id: string;
    relations: BugLinks['relations'] | null;
    parent: BugLinks['parent'];
    sub: BugLinks['subBugs'] | null;
  }>(
    `select id, dto->'relations' as relations, dto->'parent' as parent, dto->'subBugs' as sub from rm.bugs where id = any($1::text[])`,
    [ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { relations: r.relations ?? [], parent: r.parent ?? null, subBugs: r.sub ?? { total: 0, closed: 0 } },
    ]),
  );
}

async function labelsById(pool: pg.Pool, ids: string[]): Promise<Map<string, { name: string; color: string }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; name: string; color: string }>(
    'select id, name, color from rm.labels where id = any($1::text[]) and not deleted',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, { name: row.name, color: row.color }]));
}

async function usersById(pool: pg.Pool, ids: string[]): Promise<Map<string, UserRef>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; name: string; profile_image_url: string | null }>(
    'select id, name, profile_image_url from rm.users where id = any($1::text[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, { id: row.id, name: row.name, profileImageURL: row.profile_image_url }]));
}
