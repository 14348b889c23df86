import { type BugState, evolveBug, type ReportedBug, toBugDto, type UserRef } from '@bugtrail/domain';
import { GENESIS_HASH, type RecordedEvent, verifyStream } from '@bugtrail/eventstore';
import { findUserNames } from '@bugtrail/projector';
import type { z } from 'zod';
import type { ReadApiDeps } from '../deps.js';
import type { bugAtSchema, historyEntrySchema, historySchema } from './bugs.schemas.js';

/**
 * The audit history of one bug, straight from its stream (the one read that does not
 * come from a read model): every event in order with actor, time and what changed.
 */

type Names = (id: string) => UserRef | undefined;
/** Only the read models (for names): the CLI answers histories without a server. */
type HistoryDeps = Pick<ReadApiDeps, 'db'>;

async function names(deps: HistoryDeps, ids: Iterable<string>): Promise<Names> {
  const rows = await findUserNames(deps.db, ids);
  const byId = new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, profileImageURL: r.profile_image_url }]));
  return (id) => byId.get(id);
}

const peopleOf = (s: BugState): string[] =>
  s.kind === 'reported'
    ? [s.reporterId, ...s.assigneeIds, ...s.checklist.flatMap((i) => (i.completedBy ? [i.completedBy] : []))]
    : [];

type Change = { field: string; from: unknown; to: unknown };

/** The fields an event changed, before and after, as the bug's answer spells them. */
function changesOf(before: BugState, after: BugState, name: Names): Change[] {
  if (after.kind !== 'reported') return [];
  const view = (s: BugState) => {
    if (s.kind !== 'reported') return {} as Record<string, unknown>;
    const r: ReportedBug = s;
    return {
      title: r.title,
      description: r.description,
      priority: r.priority,
      severity: r.severity,
      status: r.status,
      module: r.module,
      dueDate: r.dueDate,
      assignedTo: r.assigneeIds.map((id) => ({ _id: id, name: name(id)?.name ?? 'Unknown user' })),
      checklist: r.checklist.map((i) => ({
        _id: i.id,
        text: i.text,
        completed: i.completed,
        completedBy: i.completedBy ? { _id: i.completedBy, name: name(i.completedBy)?.name ?? 'Unknown user' } : null,
        completedAt: i.completedAt,
      })),
      attachments: [...r.attachments],
      deleted: r.deleted,
    } as Record<string, unknown>;
  };
  const a = view(before);
  const b = view(after);
  const changes: Change[] = [];
  for (const field of Object.keys(b)) {
    if (JSON.stringify(a[field]) !== JSON.stringify(b[field])) {
      changes.push({ field, from: a[field] ?? null, to: b[field] });
    }
  }
  return changes;
}

export async function bugHistory(
  deps: HistoryDeps,
  bugId: string,
  events: readonly RecordedEvent[],
): Promise<z.infer<typeof historySchema>> {
  const states: BugState[] = [];
  let state: BugState = { kind: 'empty' };
  for (const e of events) {
    state = evolveBug(state, e as never);
    states.push(state);
  }
  const name = await names(deps, [
    ...events.flatMap((e) => (e.metadata.actorId ? [e.metadata.actorId] : [])),
    ...states.flatMap(peopleOf),
  ]);
  const entries: z.infer<typeof historyEntrySchema>[] = events.map((e, i) => {
    const actorId = e.metadata.actorId;
    return {
      _id: e.id,
      // stream, revision, type, data and metadata exactly as stored: enough to recompute `hash`.
      stream: e.streamId,
      revision: e.revision,
      type: e.type,
      at: e.metadata.occurredAt,
      actor: actorId ? { _id: actorId, name: name(actorId)?.name ?? 'Unknown user' } : null,
      changes: changesOf(i === 0 ? { kind: 'empty' } : states[i - 1]!, states[i]!, name),
      data: e.data as Record<string, unknown>,
      metadata: e.metadata,
      hash: e.hash,
      prevHash: i === 0 ? GENESIS_HASH : (events[i - 1]!.hash ?? null),
    };
  });
  const { ok, events: count, brokenAt } = verifyStream(events);
  return { bugId, events: entries, integrity: { ok, events: count, brokenAt } };
}

/** The bug as it was at `at` (its events up to then, folded), or null if it did not exist yet. */
export async function bugAt(
  deps: HistoryDeps,
  events: readonly RecordedEvent[],
  at: string,
): Promise<z.infer<typeof bugAtSchema> | null> {
  const limit = Date.parse(at);
  let state: BugState = { kind: 'empty' };
  let revision = -1;
  for (const e of events) {
    if (Date.parse(e.metadata.occurredAt) > limit) break;
    state = evolveBug(state, e as never);
    revision = e.revision;
  }
  if (state.kind !== 'reported') return null;
  const dto = toBugDto(state, revision, await names(deps, peopleOf(state)));
  return state.deleted ? { ...dto, deleted: true } : dto;
}
