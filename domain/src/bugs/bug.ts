import type { EventMetadata } from '../core/event.js';
import type { FieldValues } from '../projects/fields.js';
import { evolveArchived } from './archive.js';
import { type BugStatus, bugEventSchemas, type Priority, type Severity } from './bug.schemas.js';
import type { BugEvent } from './bug-events.js';
import { evolveFieldValues } from './bug-fields.js';
import { evolveMilestoneId } from './bug-milestone.js';
import { evolveBugProject, legacyProjectId } from './bug-project.js';
import { evolveStateId } from './bug-state.js';
import { type CodeLinks, evolveCodeLinks, noCodeLinks } from './code-links.js';
import { type BugFileState, evolveBugFiles } from './files.js';
import { evolveLabelIds } from './labels.js';
import { evolveRank } from './rank.js';
import { evolveParent } from './relations.js';
import { evolveWorklog, type WorkEntry } from './worklog.js';

export type ChecklistItemState = Readonly<{
  id: string;
  text: string;
  completed: boolean;
  completedBy: string | null;
  completedAt: string | null;
}>;

export type ReportedBug = Readonly<{
  kind: 'reported';
  id: string;
  /** The short name (#42); null only for a bug reported before numbers and not yet numbered. */
  number: number | null;
  /** Its project (bug-project.ts): General for a bug from before projects. */
  projectId: string;
  /** Its number within the project (`WEB-7`); null only while an old bug has no number yet. */
  projectNumber: number | null;
  title: string;
  description: string;
  priority: Priority;
  severity: Severity;
  status: BugStatus;
  module: string | null;
  dueDate: string | null;
  reporterId: string;
  assigneeIds: readonly string[];
  checklist: readonly ChecklistItemState[];
  attachments: readonly string[];
  /** Files in the blob store (files.ts); `attachments` stays the links. */
  files: readonly BugFileState[];
  /** Commits and pull requests that name the bug (code-links.ts). */
  code: CodeLinks;
  deleted: boolean;
  /** Put away by an admin once closed (archive.ts): out of lists and counts. */
  archived: boolean;
  /** Its labels' ids, in the order they were put on (labels.ts). */
  labelIds: readonly string[];
  /** Its place in its board column when someone moved it (rank.ts); null: its default place. */
  rank: string | null;
  /** The bug it is a sub-bug of (relations.ts), or null. */
  parentId: string | null;
  /** The milestone it is planned into (bug-milestone.ts), or null. */
  milestoneId: string | null;
  /** Its custom field values by field id (bug-fields.ts). */
  fieldValues: FieldValues;
  /** The workflow state it was put in (bug-state.ts); null: its status's first state. */
  stateId: string | null;
  /** Hours it is expected to take (worklog.ts), or null. */
  estimate: number | null;
  /** Time logged on it. */
  worklog: readonly WorkEntry[];
  /** When it first left Open, and was first Closed (an SLA's respond and resolve); null: not yet. */
  respondedAt: string | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
}>;

export type BugState = Readonly<{ kind: 'empty' }> | ReportedBug;

export const initialBugState = (): BugState => ({ kind: 'empty' });

/** Events as evolve sees them: from the store they carry metadata (the time). */
export type BugEventWithMeta = BugEvent & { readonly metadata?: Pick<EventMetadata, 'occurredAt'> };

/** One of the bug's own events (bug.schemas.ts), typed: a bug stream holds other features' too (comments). */
export function isBugEvent<Stored extends { type: string; data: unknown }>(event: Stored): event is Stored & BugEvent {
  return Object.hasOwn(bugEventSchemas, event.type);
}

/** Folds any stored event of a bug stream: the bug's own evolve it, the others leave it as it is. */
export function evolveBugWith(
  state: BugState,
  event: { type: string; data: unknown; metadata?: Pick<EventMetadata, 'occurredAt'> },
): BugState {
  return isBugEvent(event) ? evolveBug(state, event) : state;
}

/** Pure and total: an event that does not fit the state leaves it unchanged. */
export function evolveBug(state: BugState, event: BugEventWithMeta): BugState {
  const at = event.metadata?.occurredAt;
  if (event.type === 'BugReported') {
    const d = event.data;
    const when = at ?? new Date(0).toISOString();
    return {
      kind: 'reported',
      id: d.bugId,
      number: d.number ?? null,
      projectId: d.projectId ?? legacyProjectId,
      projectNumber: d.projectNumber ?? (d.projectId === undefined ? (d.number ?? null) : null),
      title: d.title,
      description: d.description,
      priority: d.priority,
      severity: d.severity,
      status: d.status,
      module: d.module,
      dueDate: d.dueDate,
      reporterId: d.reporterId,
      assigneeIds: [],
      checklist: [],
      attachments: [],
      files: [],
      code: noCodeLinks,
      deleted: false,
      archived: false,
      labelIds: [],
      rank: null,
      parentId: null,
      milestoneId: null,
      fieldValues: {},
      stateId: null,
      estimate: null,
      worklog: [],
      respondedAt: d.status !== 'Open' ? when : null,
      resolvedAt: d.status === 'Closed' ? when : null,
      createdAt: when,
      updatedAt: when,
    };
  }
  if (state.kind !== 'reported') return state;
  // Naming an old bug is bookkeeping, not a change to it: updatedAt stays.
  if (event.type === 'BugNumbered') {
    return state.number === null ? { ...state, ...evolveBugProject(state, event), number: event.data.number } : state;
  }
  const touched = { ...state, updatedAt: at ?? state.updatedAt };
  switch (event.type) {
    case 'BugDetailsEdited':
      return { ...touched, ...event.data.changes };
    case 'DevelopersAssigned':
      return { ...touched, assigneeIds: [...new Set([...state.assigneeIds, ...event.data.developerIds])] };
    case 'DevelopersUnassigned': {
      const removed = new Set(event.data.developerIds);
      return { ...touched, assigneeIds: state.assigneeIds.filter((id) => !removed.has(id)) };
    }
    case 'BugStatusChanged':
      return {
        ...touched,
        status: event.data.to,
        archived: evolveArchived(state.archived, event),
        stateId: null,
        respondedAt: state.respondedAt ?? (event.data.to !== 'Open' ? touched.updatedAt : null),
        resolvedAt: state.resolvedAt ?? (event.data.to === 'Closed' ? touched.updatedAt : null),
      };
    // Time logged is not a change to the bug itself: updatedAt stays.
    case 'WorkLogged':
    case 'WorkLogDeleted':
      return { ...state, worklog: evolveWorklog(state.worklog, event) };
    case 'BugEstimated':
      return { ...touched, estimate: event.data.hours };
    case 'BugStateChanged':
      return { ...touched, stateId: evolveStateId(state.stateId, event) };
    case 'ChecklistItemAdded':
      if (state.checklist.some((i) => i.id === event.data.itemId)) return state;
      return {
        ...touched,
        checklist: [
          ...state.checklist,
          { id: event.data.itemId, text: event.data.text, completed: false, completedBy: null, completedAt: null },
        ],
      };
    case 'ChecklistItemTextChanged':
      return {
        ...touched,
        checklist: mapItem(state.checklist, event.data.itemId, (i) => ({ ...i, text: event.data.text })),
      };
    case 'ChecklistItemCompleted':
      return {
        ...touched,
        checklist: mapItem(state.checklist, event.data.itemId, (i) => ({
          ...i,
          completed: true,
          completedBy: event.data.by,
          completedAt: event.data.at,
        })),
      };
    case 'ChecklistItemReopened':
      return {
        ...touched,
        checklist: mapItem(state.checklist, event.data.itemId, (i) => ({
          ...i,
          completed: false,
          completedBy: null,
          completedAt: null,
        })),
      };
    case 'ChecklistItemRemoved':
      return { ...touched, checklist: state.checklist.filter((i) => i.id !== event.data.itemId) };
    case 'AttachmentLinkAdded':
      if (state.attachments.includes(event.data.url)) return state;
      return { ...touched, attachments: [...state.attachments, event.data.url] };
    case 'AttachmentLinkRemoved':
      return { ...touched, attachments: state.attachments.filter((u) => u !== event.data.url) };
    case 'AttachmentFileAdded':
    case 'AttachmentFileRemoved': {
      const files = evolveBugFiles(state.files, event);
      return files === state.files ? state : { ...touched, files };
    }
    case 'CommitLinked':
    case 'PullRequestLinked': {
      const code = evolveCodeLinks(state.code, event);
      return code === state.code ? state : { ...touched, code };
    }
    case 'BugDeleted':
      return { ...touched, deleted: true };
    case 'BugMovedToProject':
      return {
        ...touched,
        ...evolveBugProject(state, event),
        rank: evolveRank(state.rank, event),
        milestoneId: evolveMilestoneId(state.milestoneId, event),
        stateId: null,
      };
    case 'BugFieldsChanged':
      return { ...touched, fieldValues: evolveFieldValues(state.fieldValues, event) };
    case 'BugMilestoneSet':
      return { ...touched, milestoneId: evolveMilestoneId(state.milestoneId, event) };
    case 'BugLabelsAdded':
    case 'BugLabelsRemoved': {
      const labelIds = evolveLabelIds(state.labelIds, event);
      return labelIds === state.labelIds ? state : { ...touched, labelIds };
    }
    // A place on the board is not a change to the bug: updatedAt stays.
    case 'BugRanked':
      return { ...state, rank: evolveRank(state.rank, event) };
    case 'BugParentSet':
      return { ...touched, parentId: evolveParent(state.parentId, event) };
    // Both bugs show a relation: the read side keeps them (a relation is not a field of one bug).
    case 'BugRelationAdded':
    case 'BugRelationRemoved':
      return touched;
    // Where it waits is what it has: no assignee, in its project.
    case 'BugInTriage':
      return state;
    case 'BugArchived':
    case 'BugRestored':
      return { ...touched, archived: evolveArchived(state.archived, event) };
    default:
      return state;
  }
}

function mapItem(
  items: readonly ChecklistItemState[],
  id: string,
  change: (item: ChecklistItemState) => ChecklistItemState,
): ChecklistItemState[] {
  return items.map((item) => (item.id === id ? change(item) : item));
}
