import {
  type BugField,
  type BugState,
  bugFieldChanges,
  evolveBugWith,
  type FieldDef,
  type FieldValues,
  nameForUnknown,
  noLinks,
  type ReportedBug,
  shownValue,
  streamEntityId,
  streams,
  toBugDto,
  type UserRef,
} from '@bugtrail/domain';
import { GENESIS_HASH, type Position, type RecordedEvent, verifyStream } from '@bugtrail/eventstore';
import {
  findBug,
  findBugNames,
  findLabelRefs,
  findMilestoneNames,
  findProjectFields,
  findProjectLabels,
  findProjectSetups,
  findUserNames,
} from '@bugtrail/projector';
import type { z } from 'zod';
import type { ReadApiDeps } from '../deps.js';
import type {
  activityAnswerSchema,
  activityEntrySchema,
  bugAtSchema,
  historyEntrySchema,
  historySchema,
} from './bugs.schemas.js';

/**
 * The audit history of one bug, straight from its stream (the one read that does not
 * come from a read model): every event in order with actor, time and what changed.
 */

/** People by id; and labels by id (deleted ones too: a history names what was). */
type Names = ((id: string) => UserRef | undefined) & {
  label?: (id: string) => { name: string; color: string } | undefined;
  /** A parent's key and title now; its project's, so one who may not see it gets its id only. */
  bug?: (id: string) => { key: string | null; title: string; projectId: string } | undefined;
  milestone?: (id: string) => string | undefined;
  /** A custom field by id, removed ones too (a history names what was). */
  field?: (id: string) => FieldDef | undefined;
  /** The project of the bug whose history this is: a parent elsewhere is named by its id only. */
  projectId?: string;
};
/** Only the read models (for names): the CLI answers histories without a server. */
type HistoryDeps = Pick<ReadApiDeps, 'db'>;

async function names(
  deps: HistoryDeps,
  ids: Iterable<string>,
  refs: Refs = { labels: [], bugs: [], milestones: [], projects: [] },
): Promise<Names> {
  const [rows, labels, bugs, milestones, projectFields] = await Promise.all([
    findUserNames(deps.db, ids),
    findLabelRefs(deps.db, refs.labels, true),
    findBugNames(deps.db, refs.bugs),
    findMilestoneNames(deps.db, refs.milestones),
    findProjectFields(deps.db, refs.projects),
  ]);
  const fields = new Map([...projectFields.values()].flat().map((f) => [f.id, f]));
  const byId = new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, profileImageURL: r.profile_image_url }]));
  return Object.assign((id: string) => byId.get(id), {
    label: (id: string) => labels.get(id),
    bug: (id: string) => bugs.get(id),
    milestone: (id: string) => milestones.get(id),
    field: (id: string) => fields.get(id),
  });
}

/** What a stream's events name besides people: labels, parents, milestones. */
type Refs = { labels: string[]; bugs: string[]; milestones: string[]; projects: string[] };
function refsOfStream(events: readonly RecordedEvent[]): Refs {
  const refs: Refs = { labels: [], bugs: [], milestones: [], projects: [] };
  const withFields = events.some((e) => e.type === 'BugFieldsChanged');
  for (const e of events) {
    const d = e.data as {
      labelIds?: string[];
      parentId?: string | null;
      milestoneId?: string | null;
      projectId?: string;
      fromProjectId?: string;
    };
    // The projects it has been in: their fields name its values.
    if (withFields && (e.type === 'BugReported' || e.type === 'BugMovedToProject')) {
      refs.projects.push(...[d.projectId, d.fromProjectId].filter((p): p is string => typeof p === 'string'));
    }
    if (e.type === 'BugLabelsAdded' || e.type === 'BugLabelsRemoved') refs.labels.push(...(d.labelIds ?? []));
    if (e.type === 'BugParentSet' && d.parentId) refs.bugs.push(d.parentId);
    if (e.type === 'BugMilestoneSet' && d.milestoneId) refs.milestones.push(d.milestoneId);
  }
  return refs;
}

const mergeRefs = (all: Refs[]): Refs => ({
  labels: all.flatMap((r) => r.labels),
  bugs: all.flatMap((r) => r.bugs),
  milestones: all.flatMap((r) => r.milestones),
  projects: all.flatMap((r) => r.projects),
});

const peopleOf = (s: BugState): string[] =>
  s.kind === 'reported'
    ? [s.reporterId, ...s.assigneeIds, ...s.checklist.flatMap((i) => (i.completedBy ? [i.completedBy] : []))]
    : [];

type Change = { field: string; from: unknown; to: unknown };
type ChecklistItem = ReportedBug['checklist'][number];

/** The fields whose stored values name people: the answer spells them with names. */
const namedViews: Partial<Record<BugField, (value: unknown, name: Names) => unknown>> = {
  assignedTo: (ids, name) =>
    (ids as readonly string[]).map((id) => ({ _id: id, name: name(id)?.name ?? nameForUnknown(id) })),
  checklist: (items, name) =>
    (items as readonly ChecklistItem[]).map((i) => ({
      _id: i.id,
      text: i.text,
      completed: i.completed,
      completedBy: i.completedBy
        ? { _id: i.completedBy, name: name(i.completedBy)?.name ?? nameForUnknown(i.completedBy) }
        : null,
      completedAt: i.completedAt,
    })),
  attachments: (urls) => [...(urls as readonly string[])],
  parent: (id, name) => {
    if (typeof id !== 'string') return null;
    const bug = name.bug?.(id);
    // Another project's bug may be one the reader cannot see: not named here.
    const shown = bug && bug.projectId === name.projectId ? bug : undefined;
    return { _id: id, key: shown?.key ?? null, title: shown?.title ?? '' };
  },
  milestone: (id, name) =>
    typeof id === 'string' ? { _id: id, name: name.milestone?.(id) ?? 'a deleted milestone' } : null,
  // By key, as bug answers show them: option names for option ids; a removed field or option still named.
  fields: (values, name) =>
    Object.fromEntries(
      Object.entries(values as FieldValues).map(([id, value]) => {
        const field = name.field?.(id);
        return field ? [field.key, shownValue(field, value)] : [id, value];
      }),
    ),
  labels: (ids, name) =>
    (ids as readonly string[]).map((id) => {
      const label = name.label?.(id);
      return { _id: id, name: label?.name ?? 'a deleted label', color: label?.color ?? null };
    }),
};

/** The fields an event changed, before and after, as the bug's answer spells them. */
function changesOf(before: BugState, after: BugState, name: Names): Change[] {
  return bugFieldChanges(before, after).map(({ field, from, to }) => {
    const view = namedViews[field];
    if (!view) return { field, from, to };
    return { field, from: from === null ? null : view(from, name), to: view(to, name) };
  });
}

type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** Every event's entry, folding the stream from its start (`events` must begin at revision 0). */
function historyEntries(events: readonly RecordedEvent[], name: Names): HistoryEntry[] {
  let before: BugState = { kind: 'empty' };
  return events.map((e, i) => {
    const after = evolveBugWith(before, e);
    const actorId = e.metadata.actorId;
    const entry: HistoryEntry = {
      _id: e.id,
      // stream, revision, type, data and metadata exactly as stored: enough to recompute `hash`.
      stream: e.streamId,
      revision: e.revision,
      type: e.type,
      at: e.metadata.occurredAt,
      actor: actorId
        ? { _id: actorId, name: name(actorId)?.name ?? nameForUnknown(actorId) }
        : e.metadata.actorName
          ? { _id: null, name: e.metadata.actorName }
          : null,
      changes: changesOf(before, after, name),
      data: e.data as Record<string, unknown>,
      metadata: e.metadata,
      hash: e.hash,
      prevHash: i === 0 ? GENESIS_HASH : (events[i - 1]!.hash ?? null),
    };
    before = after;
    return entry;
  });
}

/** Everyone a stream's entries name: actors, reporters, assignees, who ticked a step. */
function peopleOfStream(events: readonly RecordedEvent[]): string[] {
  const ids: string[] = [];
  let state: BugState = { kind: 'empty' };
  for (const e of events) {
    if (e.metadata.actorId) ids.push(e.metadata.actorId);
    state = evolveBugWith(state, e);
    ids.push(...peopleOf(state));
  }
  return ids;
}

export async function bugHistory(
  deps: HistoryDeps,
  bugId: string,
  events: readonly RecordedEvent[],
): Promise<z.infer<typeof historySchema>> {
  const name = await names(deps, peopleOfStream(events), refsOfStream(events));
  let last: BugState = { kind: 'empty' };
  for (const e of events) last = evolveBugWith(last, e);
  if (last.kind === 'reported') name.projectId = last.projectId;
  const entries = historyEntries(events, name);
  const { ok, events: count, brokenAt } = verifyStream(events);
  return { bugId, events: entries, integrity: { ok, events: count, brokenAt } };
}

type ActivityEntry = z.infer<typeof activityEntrySchema>;

/**
 * The newest changes across all bugs (newest first), each in the history's words and
 * naming its bug as it was then. Each bug's stream is read once, up to the newest of
 * its events on the page, so the entries say what changed from what.
 */
export async function recentBugActivity(
  deps: HistoryDeps & Pick<ReadApiDeps, 'store'>,
  options: { before?: Position; limit: number },
): Promise<z.infer<typeof activityAnswerSchema>> {
  const newest = await deps.store.readAllBackwards({ ...options, streamPrefix: streams.bug('') });
  const upTo = new Map<string, number>();
  for (const e of newest) upTo.set(e.streamId, Math.max(upTo.get(e.streamId) ?? -1, e.revision));
  const stories = await Promise.all(
    [...upTo].map(
      async ([stream, last]) => [stream, await deps.store.readStream(stream, { limit: last + 1 })] as const,
    ),
  );
  const name = await names(
    deps,
    stories.flatMap(([, events]) => peopleOfStream(events)),
    mergeRefs(stories.map(([, events]) => refsOfStream(events))),
  );
  const byEvent = new Map<string, ActivityEntry>();
  for (const [stream, events] of stories) {
    let state: BugState = { kind: 'empty' };
    const entries = historyEntries(events, name);
    events.forEach((e, i) => {
      state = evolveBugWith(state, e);
      const bug =
        state.kind === 'reported'
          ? { _id: state.id, title: state.title, deleted: state.deleted }
          : { _id: streamEntityId(stream), title: '', deleted: false };
      byEvent.set(e.id, { ...entries[i]!, position: e.position, bug });
    });
  }
  const entries = newest.flatMap((e) => byEvent.get(e.id) ?? []);
  return { entries, next: newest.length === options.limit ? (newest.at(-1)?.position ?? null) : null };
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
    state = evolveBugWith(state, e);
    revision = e.revision;
  }
  if (state.kind !== 'reported') return null;
  const [projects, labels, now, setups] = await Promise.all([
    findProjectLabels(deps.db, [state.projectId]),
    findLabelRefs(deps.db, state.labelIds),
    findBug(deps.db, state.id),
    findProjectSetups(deps.db, [state.projectId]),
  ]);
  const dto = toBugDto(
    state,
    revision,
    await names(deps, peopleOf(state)),
    (id) => projects.get(id),
    (id) => labels.get(id),
    // Relations and sub-bugs as they are now: they are facts of other bugs, not of this one's past.
    now
      ? {
          relations: now.dto.relations ?? [],
          parent: now.dto.parent ?? null,
          subBugs: now.dto.subBugs ?? noLinks.subBugs,
        }
      : noLinks,
    // Its values and state as they were, named by the fields and states as they are (a renamed option shows its new name).
    (id) => setups.get(id),
  );
  return state.deleted ? { ...dto, deleted: true } : dto;
}
