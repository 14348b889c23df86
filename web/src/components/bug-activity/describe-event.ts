import { formatDate, statusLabel } from '../../lib/format';
import { formatMinutes } from '../../lib/time';
import type { BugStatus, Role } from '../../lib/types';
import type { FieldChange, HistoryEntry } from './activity-api';

/**
 * A bug's events in plain words: "Dana changed Status from Open to In Progress", "Ravi ticked
 * 'Repro on Safari'", "Ada assigned Lee". Fields are named by the bug form's labels,
 * values in the words of the viewer's screens, old value before new.
 */

const labels: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  priority: 'Priority',
  severity: 'Severity',
  status: 'Status',
  module: 'Module',
  dueDate: 'Due Date',
  assignedTo: 'Assign To',
  checklist: 'Checklist',
  attachments: 'Attachments',
  files: 'Files',
  deleted: 'Deleted',
  commits: 'Commits',
  pullRequests: 'Pull Requests',
  labels: 'Labels',
  parent: 'Parent',
  milestone: 'Milestone',
  fields: 'Custom fields',
  estimate: 'Estimate',
  timeSpentMinutes: 'Time spent',
};
const keysByLabel = Object.fromEntries(Object.entries(labels).map(([key, label]) => [label, key]));

/** The bug form's label for a field, whether named by its key (history) or its label (comparison). */
export function fieldLabel(field: string): string {
  return labels[field] ?? field;
}

/** The answer's key for a field named either way. */
export function fieldKey(field: string): string {
  return keysByLabel[field] ?? field;
}

type Named = { _id?: string; name?: string };
type Step = { _id?: string; text?: string; completed?: boolean };

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** "Lee", "Lee and Kim", "Lee, Kim and Ada". */
export function joinNames(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A field's value as the page shows it: one line, or several for lists (checklist,
 * attachments). Empty values read "None".
 */
export function formatFieldValue(field: string, value: unknown, viewAs: Role): string[] {
  const key = fieldKey(field);
  if (value === null || value === undefined || value === '') return ['None'];
  switch (key) {
    case 'status':
      return [statusLabel(value as BugStatus, viewAs)];
    case 'dueDate':
      return [formatDate(String(value))];
    case 'deleted':
      return [value ? 'Yes' : 'No'];
    case 'assignedTo': {
      const names = list<Named>(value).map((u) => u.name ?? 'Unknown user');
      return names.length ? [names.join(', ')] : ['Unassigned'];
    }
    case 'checklist': {
      const steps = list<Step>(value).map((s) => `${s.completed ? '✓' : '○'} ${s.text ?? ''}`);
      return steps.length ? steps : ['No steps'];
    }
    case 'attachments': {
      const links = list<string>(value).map(String);
      return links.length ? links : ['None'];
    }
    case 'parent': {
      const parent = value as { key?: string | null; title?: string };
      return [[parent.key, parent.title].filter(Boolean).join(' ') || 'another bug'];
    }
    case 'milestone':
      return [(value as { name?: string }).name ?? 'a milestone'];
    case 'fields': {
      // By key, as the history names them: `customer: Acme`, one line each.
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null);
      return entries.length
        ? entries.map(([key, v]) => `${key.replace(/_/g, ' ')}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
        : ['None'];
    }
    case 'estimate':
      return [`${String(value)}h`];
    case 'timeSpentMinutes':
      return [formatMinutes(Number(value))];
    case 'labels': {
      const names = list<Named>(value).map((l) => l.name ?? 'a label');
      return names.length ? [names.join(', ')] : ['None'];
    }
    case 'files': {
      const names = list<{ name?: string }>(value).map((file) => file.name ?? 'a file');
      return names.length ? names : ['None'];
    }
    case 'commits': {
      const commits = list<{ sha?: string; message?: string }>(value).map(
        (c) => `${String(c.sha ?? '').slice(0, 7)} ${String(c.message ?? '').split('\n')[0]}`,
      );
      return commits.length ? commits : ['None'];
    }
    case 'pullRequests': {
      const requests = list<{ number?: number; title?: string; repository?: string; state?: string }>(value).map(
        (p) => `${p.repository ?? ''}#${p.number ?? ''} ${p.title ?? ''} (${p.state ?? 'open'})`,
      );
      return requests.length ? requests : ['None'];
    }
    default:
      return [typeof value === 'string' ? value : JSON.stringify(value)];
  }
}

/** One line of the timeline. `summary` follows the actor's name; `details` show before → after. */
export type ActivityRow = {
  id: string;
  at: string;
  /** Every revision the row stands for (a report folds its first assignments, steps and links in). */
  revisions: number[];
  actor: HistoryEntry['actor'];
  /** The automation rule that made it, when one did: shown "by rule <name>". */
  rule?: { _id: string; name: string } | undefined;
  summary: string;
  details: FieldChange[];
};

const changeOf = (entry: HistoryEntry, field: string) => entry.changes.find((c) => c.field === field);

function stepText(entry: HistoryEntry): string {
  const itemId = entry.data.itemId;
  const change = changeOf(entry, 'checklist');
  const steps = [...list<Step>(change?.to), ...list<Step>(change?.from)];
  const text = typeof entry.data.text === 'string' ? entry.data.text : steps.find((s) => s._id === itemId)?.text;
  return text ?? 'a step';
}

function peopleIn(entry: HistoryEntry, side: 'from' | 'to'): string {
  const ids = list<string>(entry.data.developerIds);
  const people = list<Named>(changeOf(entry, 'assignedTo')?.[side]);
  const names = ids.map((id) => people.find((p) => p._id === id)?.name ?? 'Unknown user');
  return joinNames(names.length ? names : people.map((p) => p.name ?? 'Unknown user'));
}

/** The labels an event put on or took off, by name (the history names even a deleted one). */
function labelsIn(entry: HistoryEntry, side: 'from' | 'to'): string {
  const ids = list<string>(entry.data.labelIds);
  const named = list<Named>(changeOf(entry, 'labels')?.[side]);
  return joinNames(ids.map((id) => `'${named.find((l) => l._id === id)?.name ?? 'a label'}'`));
}

/** Single-line fields whose change reads well in one sentence. */
const isShort = (field: string) =>
  !['description', 'checklist', 'assignedTo', 'attachments', 'files', 'commits', 'pullRequests'].includes(field);

function describeEdit(entry: HistoryEntry, viewAs: Role): Pick<ActivityRow, 'summary' | 'details'> {
  const changes = entry.changes.filter((c) => c.field !== 'deleted');
  const [only] = changes;
  if (changes.length === 1 && only && isShort(only.field)) {
    const from = formatFieldValue(only.field, only.from, viewAs).join(', ');
    const to = formatFieldValue(only.field, only.to, viewAs).join(', ');
    return { summary: `changed ${fieldLabel(only.field)} from ${from} to ${to}`, details: [] };
  }
  if (changes.length === 0) return { summary: 'edited the bug', details: [] };
  return { summary: `edited ${joinNames(changes.map((c) => fieldLabel(c.field)))}`, details: changes };
}

function describe(entry: HistoryEntry, viewAs: Role): Pick<ActivityRow, 'summary' | 'details'> {
  const data = entry.data;
  switch (entry.type) {
    case 'BugReported':
      return { summary: 'reported the bug', details: [] };
    case 'BugDetailsEdited':
      return describeEdit(entry, viewAs);
    case 'BugStatusChanged': {
      const change = changeOf(entry, 'status');
      const from = (data.from ?? change?.from) as BugStatus;
      const to = (data.to ?? change?.to) as BugStatus;
      // Named like every other field's row: actor, field, old, new (api.md "Audit trail").
      return {
        summary: `changed ${fieldLabel('status')} from ${statusLabel(from, viewAs)} to ${statusLabel(to, viewAs)}${
          Array.isArray(data.overriddenBlockers) && data.overriddenBlockers.length > 0
            ? ', past the open bugs that block it'
            : ''
        }`,
        details: [],
      };
    }
    case 'DevelopersAssigned':
      return { summary: `assigned ${peopleIn(entry, 'to')}`, details: [] };
    case 'DevelopersUnassigned':
      return { summary: `unassigned ${peopleIn(entry, 'from')}`, details: [] };
    case 'ChecklistItemAdded':
      return { summary: `added the step '${stepText(entry)}'`, details: [] };
    case 'ChecklistItemTextChanged': {
      const change = changeOf(entry, 'checklist');
      const before = list<Step>(change?.from).find((s) => s._id === data.itemId)?.text;
      return {
        summary: before
          ? `reworded a step from '${before}' to '${stepText(entry)}'`
          : `reworded a step to '${stepText(entry)}'`,
        details: [],
      };
    }
    case 'ChecklistItemCompleted':
      return { summary: `ticked '${stepText(entry)}'`, details: [] };
    case 'ChecklistItemReopened':
      return { summary: `unticked '${stepText(entry)}'`, details: [] };
    case 'ChecklistItemRemoved':
      return { summary: `removed the step '${stepText(entry)}'`, details: [] };
    case 'AttachmentLinkAdded':
      return { summary: `attached ${String(data.url ?? 'a link')}`, details: [] };
    case 'AttachmentLinkRemoved':
      return { summary: `removed the attachment ${String(data.url ?? '')}`.trim(), details: [] };
    case 'AttachmentFileAdded':
      return { summary: `attached the file ${String(data.name ?? '')}`.trim(), details: [] };
    case 'AttachmentFileRemoved':
      return { summary: `removed the file ${String(data.name ?? '')}`.trim(), details: [] };
    case 'BugDeleted':
      return { summary: 'deleted the bug', details: [] };
    case 'BugArchived':
      return { summary: 'archived the bug', details: [] };
    case 'BugRestored':
      return { summary: 'restored the bug from the archive', details: [] };
    // The discussion (bug-comments/): the words stay in the Comments section, not here.
    case 'CommentAdded':
      return { summary: 'commented', details: [] };
    case 'CommentEdited':
      return { summary: 'edited a comment', details: [] };
    case 'CommentDeleted':
      return { summary: 'deleted a comment', details: [] };
    case 'BugNumbered':
      return { summary: `numbered it #${String(data.number ?? '')}`, details: [] };
    // The page shows the key it has now; the project it left keeps naming it by the old one.
    case 'BugMovedToProject':
      return { summary: 'moved it to another project', details: [] };
    case 'BugLabelsAdded':
      return { summary: `labelled it ${labelsIn(entry, 'to')}`, details: [] };
    case 'BugLabelsRemoved':
      return {
        summary: `removed the label ${labelsIn(entry, 'from')}${data.labelDeleted ? ' (the label was deleted)' : ''}`,
        details: [],
      };
    case 'BugRelationAdded':
    case 'BugRelationRemoved': {
      const words: Record<string, string> = {
        blocks: 'blocks another bug',
        blocked_by: 'is blocked by another bug',
        duplicate_of: 'is a duplicate of another bug',
        duplicated_by: 'is duplicated by another bug',
        relates_to: 'relates to another bug',
      };
      const what = words[String(data.type)] ?? 'relates to another bug';
      return {
        summary: entry.type === 'BugRelationAdded' ? `said it ${what}` : `removed the relation: it ${what}`,
        details: [],
      };
    }
    case 'BugRanked':
      return { summary: 'moved it on the board', details: [] };
    case 'BugFieldsChanged':
      return { summary: 'changed custom fields', details: entry.changes.filter((c) => c.field === 'fields') };
    case 'BugStateChanged':
      return { summary: 'moved it to another state', details: entry.changes.filter((c) => c.field === 'status') };
    case 'WorkLogged':
      return {
        summary: `logged ${formatMinutes(Number(data.minutes ?? 0))} on ${formatDate(String(data.on ?? ''))}`,
        details: [],
      };
    case 'WorkLogDeleted':
      return { summary: 'deleted a worklog entry', details: [] };
    case 'BugInTriage':
      return { summary: 'left it unassigned, for the project’s triage', details: [] };
    // Code links, from GitHub or GitLab: the actor is the commit's author, or the host by name.
    case 'CommitLinked': {
      const sha = String(data.sha ?? '').slice(0, 7);
      const title = String(data.message ?? '').split('\n')[0];
      return {
        summary: `linked commit ${sha}${title ? ` '${title}'` : ''} in ${String(data.repository ?? '')}`,
        details: [],
      };
    }
    case 'PullRequestLinked': {
      const name = `${String(data.repository ?? '')}#${String(data.number ?? '')}`;
      const state = String(data.state ?? 'open');
      const before = list<{ number?: number; repository?: string; state?: string }>(
        changeOf(entry, 'pullRequests')?.from,
      ).find((p) => p.number === data.number && p.repository === data.repository);
      if (!before) return { summary: `linked pull request ${name} '${String(data.title ?? '')}'`, details: [] };
      return {
        summary:
          before.state === state
            ? `updated pull request ${name}`
            : `saw pull request ${name} ${state === 'open' ? 'reopened' : state}`,
        details: [],
      };
    }
    default: {
      const changes = entry.changes;
      if (changes.length === 0) return { summary: 'changed the bug', details: [] };
      return { summary: `changed ${joinNames(changes.map((c) => fieldLabel(c.field)))}`, details: changes };
    }
  }
}

/** Events write-api appends with a report, in the same moment and by the same person. */
const foldsIntoReport = new Set(['DevelopersAssigned', 'ChecklistItemAdded', 'AttachmentLinkAdded']);

/**
 * The timeline's rows, oldest first. A report's own assignments, steps and links read
 * as one sentence ("reported the bug and assigned Dana, with 2 steps"): they are one act.
 * Entries of several bugs (the audit feed) fold only within their own stream.
 */
export function activityRows(entries: readonly HistoryEntry[], viewAs: Role): ActivityRow[] {
  const rows: ActivityRow[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const row: ActivityRow = {
      id: entry._id,
      at: entry.at,
      revisions: [entry.revision],
      actor: entry.actor,
      ...(entry.metadata?.rule ? { rule: { _id: entry.metadata.rule._id, name: entry.metadata.rule.name } } : {}),
      ...describe(entry, viewAs),
    };
    if (entry.type === 'BugReported') {
      const assigned: string[] = [];
      let steps = 0;
      let links = 0;
      while (i + 1 < entries.length) {
        const next = entries[i + 1]!;
        if (
          !foldsIntoReport.has(next.type) ||
          next.at !== entry.at ||
          next.actor?._id !== entry.actor?._id ||
          next.stream !== entry.stream
        )
          break;
        if (next.type === 'DevelopersAssigned') assigned.push(peopleIn(next, 'to'));
        if (next.type === 'ChecklistItemAdded') steps++;
        if (next.type === 'AttachmentLinkAdded') links++;
        row.revisions.push(next.revision);
        i++;
      }
      const extras = [
        ...(steps ? [plural(steps, 'step', 'steps')] : []),
        ...(links ? [plural(links, 'link', 'links')] : []),
      ];
      row.summary = `reported the bug${assigned.length ? ` and assigned ${joinNames(assigned)}` : ''}${
        extras.length ? `, with ${joinNames(extras)}` : ''
      }`;
    }
    rows.push(row);
  }
  return rows;
}

/** The moments a bug was changed at, oldest first, each once: the stops of the time slider. */
export function changeMoments(entries: readonly HistoryEntry[]): string[] {
  const times = [...new Set(entries.map((e) => e.at))];
  return times.sort((a, b) => Date.parse(a) - Date.parse(b));
}
