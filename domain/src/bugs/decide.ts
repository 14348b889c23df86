import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { assertNever, type Command, type Decider } from '../core/event.js';
import { type BugState, evolveBug, initialBugState, type ReportedBug } from './bug.js';
import type { BugDetailsEditedData, BugStatus, Priority, Severity } from './bug.schemas.js';
import type { BugEvent } from './bug-events.js';
import { type FieldInput, fieldEvents } from './bug-fields.js';
import { assertOpenTo, bugProjectMessages, type ProjectFacts } from './bug-project.js';
import { type ChecklistEntry, diffChecklist } from './checklist.js';
import { decideLinkCode, type LinkCode } from './code-links.js';
import { type BugFileCommand, decideBugFiles } from './files.js';
import { actorOf, existingBug, refuse } from './guards.js';
import { bugMessages, bugPermissions } from './permissions.js';
import { type Blockers, closingPastBlockers } from './relations.js';
import {
  bugLimitMessages,
  cleanEntries,
  normaliseDueDate,
  validateAttachmentLinks,
  validateBugForm,
  validateChecklistTexts,
} from './validation.js';
import { estimateEvents } from './worklog.js';

/**
 * The bug decider: one small function per command. Order of checks in each: the
 * bug exists (404), the actor may do it (403), the input is valid (400). A command
 * that changes nothing decides no events.
 */

export const bugWriteMessages = {
  cannotReport: 'Only testers and admins can report bugs',
  cannotEdit: "You don't have permission to edit this bug",
  cannotDelete: "You don't have permission to delete this bug",
  cannotChangeStatus: "You don't have permission to change the status of this bug",
  cannotUpdateChecklist: "You don't have permission to update this checklist",
  alreadyExists: 'Bug already exists',
} as const;

/** Ids the server made for new checklist items, used in order (the domain makes none). */
type WithNewIds = { newItemIds: readonly string[] };
/** When given, every assignee must be one of these (existing developers, looked up by the caller). */
type WithKnownDevelopers = {
  knownDeveloperIds?: readonly string[] | undefined;
  /** For each developer named, the private projects they are no member of (issue 35), when the caller looked. */
  developersHiddenProjects?: Readonly<Record<string, readonly string[]>> | undefined;
};

export type BugDetailsInput = Readonly<{
  title: string;
  description: string;
  priority: Priority;
  severity: Severity;
  module: string | null;
  /** ISO date-time, a `YYYY-MM-DD` day, or null. */
  dueDate: string | null;
}>;

export type ReportBug = Command<
  'ReportBug',
  WithNewIds &
    WithKnownDevelopers & {
      bugId: string;
      /** The short name the write side allocated for this bug (see BugNumbers). */
      number: number;
      /** The project it goes to, as write-api read it (the default one when the client named none). */
      project: ProjectFacts;
      /** Its number within that project (see ProjectBugNumbers), allocated like `number`. */
      projectNumber: number;
      title: string;
      description: string;
      priority?: Priority | undefined;
      severity?: Severity | undefined;
      module?: string | null | undefined;
      dueDate?: string | null | undefined;
      assigneeIds: readonly string[];
      checklist?: readonly string[] | undefined;
      attachments?: readonly string[] | undefined;
      /** Its project's custom fields and the values sent (issue 37); absent: the project has none to check. */
      fields?: FieldInput | undefined;
      /** Hours it is expected to take (issue 37). */
      estimate?: number | null | undefined;
    }
>;
export type ChangeBugStatus = Command<'ChangeBugStatus', Blockers & { bugId: string; status: BugStatus }>;
export type SetChecklist = Command<'SetChecklist', WithNewIds & { bugId: string; items: readonly ChecklistEntry[] }>;
export type DeleteBug = Command<'DeleteBug', { bugId: string }>;
/** Gives a bug reported before numbers its number (the write side's backfill; no actor). */
export type NumberBug = Command<'NumberBug', { bugId: string; number: number }>;
/**
 * The edit form (`PUT /api/bugs/{id}`): details, assignees, checklist and links in one
 * decision and one append. Absent fields stay as they are.
 */
export type UpdateBug = Command<
  'UpdateBug',
  WithNewIds &
    WithKnownDevelopers &
    Blockers & {
      bugId: string;
      changes: Partial<BugDetailsInput> & {
        assigneeIds?: readonly string[] | undefined;
        checklist?: readonly ChecklistEntry[] | undefined;
        attachments?: readonly string[] | undefined;
        /**
         * The admin View/Update form sends its status selector with the rest (spec
         * section 2): applied for those who may change status, ignored for the others
         * (a tester's form echoes a status it does not own).
         */
        status?: BugStatus | undefined;
        /** Hours it is expected to take; null: none (issue 37). */
        estimate?: number | null | undefined;
      };
      /** Custom field values sent (only those named change), with the bug's project's fields. */
      fields?: FieldInput | undefined;
    }
>;

/** One way to say each thing: the edit form's UpdateBug covers details, assignees, checklist and links. */
export type BugCommand =
  | ReportBug
  | ChangeBugStatus
  | SetChecklist
  | DeleteBug
  | UpdateBug
  | NumberBug
  | BugFileCommand
  | LinkCode;

// ── helpers ───────────────────────────────────────────────────────────────────

function fail(issues: readonly { field: string; message: string }[]): void {
  if (issues.length > 0) throw new ValidationError(issues[0]!.message, issues);
}

function idSupply(ids: readonly string[]): () => string {
  let next = 0;
  return () => {
    const id = ids[next++];
    if (!id) throw new Error('the command carries too few new item ids');
    return id;
  };
}

const unique = (ids: readonly string[]) => [...new Set(ids.map((id) => id.trim()).filter(Boolean))];

/** A private project's bug cannot be given to someone it does not exist for (issue 35). */
function outsiderIssues(ids: readonly string[], isOutsider: (id: string) => boolean) {
  return ids.some(isOutsider) ? [{ field: 'assignedTo', message: bugProjectMessages.assigneeNotMember }] : [];
}

function unknownDeveloperIssues(ids: readonly string[], known: readonly string[] | undefined) {
  if (!known) return [];
  const set = new Set(known);
  return ids.some((id) => !set.has(id)) ? [{ field: 'assignedTo', message: bugLimitMessages.unknownDevelopers }] : [];
}

const cleanModule = (module: string | null | undefined) => (module ?? '').trim() || null;

// ── commands ──────────────────────────────────────────────────────────────────

function reportBug(command: ReportBug, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  if (!bugPermissions.canReport(actor)) throw new ForbiddenError(bugWriteMessages.cannotReport);
  if (state.kind !== 'empty') throw new ConflictError(bugWriteMessages.alreadyExists);
  const d = command.data;
  assertOpenTo(actor, d.project);
  const assigneeIds = unique(d.assigneeIds);
  const checklist = cleanEntries(d.checklist);
  const attachments = [...new Set(cleanEntries(d.attachments))];
  const fields = fieldEvents(d.bugId, d.fields, {}, true);
  const estimate = d.estimate === undefined ? [] : estimateEvents(d.bugId, null, d.estimate);
  fail([
    ...validateBugForm(
      {
        title: d.title,
        description: d.description,
        assigneeIds,
        dueDate: d.dueDate ?? null,
        module: d.module ?? null,
        checklist,
        attachments,
      },
      // A team project takes a report without an assignee into its triage.
      { now: command.metadata.now, assigneesOptional: d.project.access === 'team' },
    ),
    ...unknownDeveloperIssues(assigneeIds, d.knownDeveloperIds),
    // Developers see no project they are not a member of unless it is public.
    ...outsiderIssues(assigneeIds, (id) => d.project.private && !Object.hasOwn(d.project.members, id)),
    ...fields.issues,
  ]);
  const bugId = d.bugId;
  const newId = idSupply(d.newItemIds);
  return [
    {
      type: 'BugReported',
      data: {
        bugId,
        title: d.title.trim(),
        description: d.description.trim(),
        priority: d.priority ?? 'Medium',
        severity: d.severity ?? 'Minor',
        // The create form always creates an Open bug, whatever the client sends.
        status: 'Open',
        module: cleanModule(d.module),
        dueDate: normaliseDueDate(d.dueDate) ?? null,
        reporterId: actor.id,
        number: d.number,
        projectId: d.project.id,
        projectNumber: d.projectNumber,
      },
    },
    assigneeIds.length > 0
      ? { type: 'DevelopersAssigned', data: { bugId, developerIds: assigneeIds } }
      : { type: 'BugInTriage', data: { bugId, projectId: d.project.id } },
    ...fields.events,
    ...estimate,
    ...checklist.map((text): BugEvent => ({ type: 'ChecklistItemAdded', data: { bugId, itemId: newId(), text } })),
    ...attachments.map((url): BugEvent => ({ type: 'AttachmentLinkAdded', data: { bugId, url } })),
  ];
}

/** The changed detail fields, validated against the bug as it would become. */
function detailChanges(
  bug: ReportedBug,
  changes: Partial<BugDetailsInput>,
  assigneeIds: readonly string[],
  now: string,
): { changed: BugDetailsEditedData['changes']; issues: { field: string; message: string }[] } {
  const title = changes.title ?? bug.title;
  const description = changes.description ?? bug.description;
  const module = changes.module === undefined ? bug.module : cleanModule(changes.module);
  // The due date is validated only when it changes (an old one may have passed).
  let dueDate = bug.dueDate;
  let dueDateChanged = false;
  if (changes.dueDate !== undefined) {
    const next = normaliseDueDate(changes.dueDate);
    if (next === undefined)
      dueDateChanged = true; // not a date: let validation say so
    else {
      dueDateChanged =
        next === null || bug.dueDate === null ? next !== bug.dueDate : Date.parse(next) !== Date.parse(bug.dueDate);
      dueDate = next;
    }
  }
  const issues = validateBugForm(
    { title, description, assigneeIds, dueDate: dueDateChanged ? changes.dueDate! : bug.dueDate, module },
    // A bug waiting in a team project's triage keeps having no assignee while its details change.
    { now, checkDueDate: dueDateChanged, assigneesOptional: bug.assigneeIds.length === 0 && assigneeIds.length === 0 },
  );
  const changed: { -readonly [K in keyof BugDetailsEditedData['changes']]: BugDetailsEditedData['changes'][K] } = {};
  if (title.trim() !== bug.title) changed.title = title.trim();
  if (description.trim() !== bug.description) changed.description = description.trim();
  if (changes.priority !== undefined && changes.priority !== bug.priority) changed.priority = changes.priority;
  if (changes.severity !== undefined && changes.severity !== bug.severity) changed.severity = changes.severity;
  if (module !== bug.module) changed.module = module;
  if (dueDateChanged) changed.dueDate = dueDate;
  return { changed, issues };
}

function editedEvent(bugId: string, changed: BugDetailsEditedData['changes']): BugEvent[] {
  return Object.keys(changed).length > 0 ? [{ type: 'BugDetailsEdited', data: { bugId, changes: changed } }] : [];
}

/** Assignment as a diff: who joins, who leaves. */
function assigneeEvents(bug: ReportedBug, next: readonly string[]): BugEvent[] {
  const added = next.filter((id) => !bug.assigneeIds.includes(id));
  const removed = bug.assigneeIds.filter((id) => !next.includes(id));
  const events: BugEvent[] = [];
  if (added.length > 0) events.push({ type: 'DevelopersAssigned', data: { bugId: bug.id, developerIds: added } });
  if (removed.length > 0) events.push({ type: 'DevelopersUnassigned', data: { bugId: bug.id, developerIds: removed } });
  return events;
}

function changeBugStatus(command: ChangeBugStatus, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  if (
    !bugPermissions.canWorkOn(actor, bug) &&
    !bugPermissions.canCloseOrReopen(actor, bug, bug.status, command.data.status)
  ) {
    refuse(actor, bug, bugWriteMessages.cannotChangeStatus);
  }
  // Any status from any other (spec section 4); the same status is no change.
  if (command.data.status === bug.status) return [];
  const past = closingPastBlockers(actor, bug, command.data.status, command.data);
  return [{ type: 'BugStatusChanged', data: { bugId: bug.id, from: bug.status, to: command.data.status, ...past } }];
}

function setChecklist(command: SetChecklist, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  const canEditItems = bugPermissions.canEdit(actor, bug);
  const canTick = bugPermissions.canWorkOn(actor, bug);
  if (!canEditItems && !canTick) refuse(actor, bug, bugWriteMessages.cannotUpdateChecklist);
  fail(validateChecklistTexts(command.data.items.map((i) => i.text)));
  return diffChecklist(bug.checklist, command.data.items, {
    bugId: bug.id,
    actorId: actor.id,
    now: command.metadata.now,
    canEditItems,
    canTick,
    newId: idSupply(command.data.newItemIds),
  });
}

function attachmentEvents(bug: ReportedBug, links: readonly string[]): BugEvent[] {
  const next = [...new Set(cleanEntries(links))];
  return [
    ...bug.attachments
      .filter((url) => !next.includes(url))
      .map((url): BugEvent => ({ type: 'AttachmentLinkRemoved', data: { bugId: bug.id, url } })),
    ...next
      .filter((url) => !bug.attachments.includes(url))
      .map((url): BugEvent => ({ type: 'AttachmentLinkAdded', data: { bugId: bug.id, url } })),
  ];
}

function deleteBug(command: DeleteBug, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  if (!bugPermissions.canDelete(actor, bug)) refuse(actor, bug, bugWriteMessages.cannotDelete);
  return [{ type: 'BugDeleted', data: { bugId: bug.id } }];
}

function updateBug(command: UpdateBug, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  if (!bugPermissions.canEdit(actor, bug)) refuse(actor, bug, bugWriteMessages.cannotEdit);
  const { changes, knownDeveloperIds, developersHiddenProjects } = command.data;
  const assigneeIds = changes.assigneeIds === undefined ? bug.assigneeIds : unique(changes.assigneeIds);
  const added = assigneeIds.filter((id) => !bug.assigneeIds.includes(id));
  const details = detailChanges(bug, changes, assigneeIds, command.metadata.now);
  const fields = fieldEvents(bug.id, command.data.fields, bug.fieldValues, false);
  fail([
    ...details.issues,
    ...fields.issues,
    ...unknownDeveloperIssues(added, knownDeveloperIds),
    ...outsiderIssues(added, (id) => developersHiddenProjects?.[id]?.includes(bug.projectId) ?? false),
    ...(changes.checklist ? validateChecklistTexts(changes.checklist.map((i) => i.text)) : []),
    ...(changes.attachments ? validateAttachmentLinks(changes.attachments) : []),
  ]);
  const events: BugEvent[] = [
    ...editedEvent(bug.id, details.changed),
    ...fields.events,
    ...(changes.estimate === undefined ? [] : estimateEvents(bug.id, bug.estimate, changes.estimate)),
    ...assigneeEvents(bug, assigneeIds),
  ];
  if (changes.checklist) {
    events.push(
      ...diffChecklist(bug.checklist, changes.checklist, {
        bugId: bug.id,
        actorId: actor.id,
        now: command.metadata.now,
        canEditItems: true,
        canTick: bugPermissions.canWorkOn(actor, bug),
        newId: idSupply(command.data.newItemIds),
      }),
    );
  }
  if (changes.attachments) events.push(...attachmentEvents(bug, changes.attachments));
  if (changes.status !== undefined && changes.status !== bug.status && bugPermissions.canWorkOn(actor, bug)) {
    const past = closingPastBlockers(actor, bug, changes.status, command.data);
    events.push({ type: 'BugStatusChanged', data: { bugId: bug.id, from: bug.status, to: changes.status, ...past } });
  }
  return events;
}

/** A bug keeps the first number it was given; deleted bugs get one too (numbers are never reused). */
function numberBug(command: NumberBug, state: BugState): BugEvent[] {
  if (state.kind !== 'reported') throw new NotFoundError(bugMessages.notFound);
  if (state.number !== null) return [];
  return [{ type: 'BugNumbered', data: { bugId: state.id, number: command.data.number } }];
}

export function decideBug(command: BugCommand, state: BugState): BugEvent[] {
  switch (command.type) {
    case 'ReportBug':
      return reportBug(command, state);
    case 'ChangeBugStatus':
      return changeBugStatus(command, state);
    case 'SetChecklist':
      return setChecklist(command, state);
    case 'DeleteBug':
      return deleteBug(command, state);
    case 'UpdateBug':
      return updateBug(command, state);
    case 'NumberBug':
      return numberBug(command, state);
    case 'AddBugFiles':
    case 'RemoveBugFile':
      return decideBugFiles(command, state);
    case 'LinkCode':
      return decideLinkCode(command, state);
    default:
      return assertNever(command);
  }
}

/**
 * A decider over the bug stream for a feature module's own command (archive.ts): the bug's
 * state and evolve, the module's decision. Such a command needs no case in `decideBug` and no
 * place in `BugCommand`: its module and its declaration are all it takes.
 */
export function bugStreamDecider<C extends Command>(
  decide: (command: C, state: BugState) => BugEvent[],
): Decider<BugState, C, BugEvent> {
  return { initialState: initialBugState, evolve: evolveBug, decide };
}

export const bugDecider: Decider<BugState, BugCommand, BugEvent> = {
  initialState: initialBugState,
  evolve: evolveBug,
  decide: decideBug,
};
