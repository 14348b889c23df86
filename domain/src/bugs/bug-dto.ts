import type { LabelRef } from '../labels/label.schemas.js';
import { generalProject } from '../projects/default-project.js';
import type { FieldDef } from '../projects/field-values.js';
import { shownFields } from '../projects/field-values.js';
import type { ShownFieldValue } from '../projects/field-vocabulary.js';
import { type StateRef, stateOf, stateRef, type WorkflowState } from '../projects/state-values.js';
import { bugSla, policyFor, type SlaPolicy } from '../sla/sla.js';
import { type BugSla, slaAt } from '../sla/sla-vocabulary.js';
import { toUserDto, type UserDto } from '../users/user-dto.js';
import type { ReportedBug } from './bug.js';
import { bugKey } from './bug-project.js';
import type { CommitLink, PullRequestLink } from './code-links.js';
import { type BugFileDto, toBugFileDto } from './files.js';
import { nameForUnknown } from './imported-people.js';
import { rankOf } from './rank.js';
import type { ShownRelationType } from './relations.js';
import { minutesOf } from './worklog.js';

export type UserRef = { id: string; name: string; email?: string; profileImageURL: string | null };

export type BugDto = {
  _id: string;
  /** The short name (#42): 1, 2, 3, … in report order, never reused. */
  number: number | null;
  /** Its project (api.md "Projects"). */
  projectId: string;
  project: ProjectRef;
  /** `WEB-7`: the project's key and the bug's number in it; null only while an old bug has no number. */
  key: string | null;
  title: string;
  description: string;
  priority: ReportedBug['priority'];
  severity: ReportedBug['severity'];
  status: ReportedBug['status'];
  module: string | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: { _id: string; name: string };
  assignedTo: UserDto[];
  checklist: {
    _id: string;
    text: string;
    completed: boolean;
    completedBy: { _id: string; name: string } | null;
    completedAt: string | null;
  }[];
  attachments: string[];
  /** Uploaded files, each fetched from its `url` by those who may see the bug. */
  files: BugFileDto[];
  /** Commits and pull (merge) requests that name the bug, oldest first (api.md "Integrations"). */
  code: { commits: CommitLink[]; pullRequests: PullRequestLink[] };
  /** Put away once closed (archive.ts): out of lists and counts until restored or reopened. */
  archived: boolean;
  /** Its labels (api.md "Labels"), in the order they were put on; a deleted label is not shown. */
  labels: LabelRef[];
  /** Its place in its board column: sorts ascending, byte by byte (api.md "Board"). */
  rank: string;
  /** Its relations to other bugs, each named from this bug's side (api.md "Relations and sub-bugs"). */
  relations: { type: ShownRelationType; bug: LinkedBug }[];
  /** The bug it is a sub-bug of. */
  parent: Omit<LinkedBug, 'number'> | null;
  /** Its sub-bugs: how many, how many of them Closed. */
  subBugs: { total: number; closed: number };
  /** The milestone it is planned into (`GET /api/milestones/{id}` names it), or null. */
  milestoneId: string | null;
  /** Its project's custom fields by key (api.md "Custom fields"), null where it has no value. */
  fields: Record<string, ShownFieldValue>;
  /** Its workflow state (api.md "workflow states"): `category` is always its `status`. */
  state: StateRef;
  /** Hours it is expected to take, or null (api.md "time"). */
  estimate: number | null;
  /** Minutes logged on it, every entry together. */
  timeSpentMinutes: number;
  /** When it first left Open and was first Closed (null: not yet). */
  respondedAt: string | null;
  resolvedAt: string | null;
  /** Its SLA under the policy that holds for it (api.md "Automation rules"), or null. */
  sla: BugSla | null;
  /** The stream revision: send it back as If-Match to edit. */
  version: number;
};

/**
 * Another bug as a bug's answer names it (a relation, the parent). `projectId` says whose it is:
 * a reader who may not see that project gets the answer without it.
 */
export type LinkedBug = {
  _id: string;
  number: number | null;
  key: string | null;
  title: string;
  status: ReportedBug['status'];
  projectId: string;
};
/** A bug's relations, parent and sub-bug counts: facts of other bugs, found by whoever builds the answer. */
export type BugLinks = Pick<BugDto, 'relations' | 'parent' | 'subBugs'>;
export const noLinks: BugLinks = { relations: [], parent: null, subBugs: { total: 0, closed: 0 } };

/** The answer without the links to bugs of projects hidden from the reader (issue 35's rule). */
export function withoutHiddenLinks<T extends Pick<BugDto, 'relations' | 'parent'>>(
  dto: T,
  hidden: readonly string[],
): T {
  if (hidden.length === 0) return dto;
  const relations = dto.relations ?? [];
  const keep = relations.filter((r) => !hidden.includes(r.bug.projectId));
  const parentHidden = dto.parent !== null && dto.parent !== undefined && hidden.includes(dto.parent.projectId);
  if (keep.length === relations.length && !parentHidden) return dto;
  return { ...dto, relations: keep, parent: parentHidden ? null : dto.parent };
}

/** The answer with its SLA read against the clock (`now`): what is breached and at risk by then. */
export function withSlaAt<T extends Pick<BugDto, 'sla' | 'createdAt'>>(dto: T, now: Date): T {
  if (!dto.sla) return dto;
  const sla = slaAt(dto.sla, dto.createdAt, now);
  return sla === dto.sla ? dto : { ...dto, sla };
}

/** A bug's project as its answers name it. */
export type ProjectRef = { _id: string; key: string; name: string };
export type ProjectNames = (id: string) => Pick<ProjectRef, 'key' | 'name'> | undefined;
/** A label's name and colour; undefined for one deleted (or unknown): the bug does not show it. */
export type LabelNames = (id: string) => Pick<LabelRef, 'name' | 'color'> | undefined;
/**
 * A project's custom fields (removed ones flagged) and workflow states (empty: the defaults), as
 * whoever builds the answer knows them.
 */
export type ProjectSetup = (
  projectId: string,
) => Readonly<{ fields: readonly FieldDef[]; states: readonly WorkflowState[] }> | undefined;
const noSetup: ProjectSetup = () => undefined;

/** Labels by name, for a bug's answer: the ones it carries that still exist. */
export function labelRefs(ids: readonly string[], labels: LabelNames): LabelRef[] {
  return ids.flatMap((id) => {
    const label = labels(id);
    return label ? [{ _id: id, name: label.name, color: label.color }] : [];
  });
}

/** A project no lookup knows (General before its stream exists, as a rebuild meets old bugs first). */
const unknownProject = (id: string): Pick<ProjectRef, 'key' | 'name'> =>
  id === generalProject.id ? { key: generalProject.key, name: generalProject.name } : { key: '', name: '' };

/** A name for an id that has no user: an imported person's, else never crash a read on it. */
const unknownUser = (id: string): UserRef => ({ id, name: nameForUnknown(id), profileImageURL: null });

/**
 * The one shape of a bug in every answer (lists and detail alike), so the write
 * side's answers and the read models cannot drift apart.
 */
export function toBugDto(
  bug: ReportedBug,
  version: number,
  users: (id: string) => UserRef | undefined,
  projects: ProjectNames,
  labels: LabelNames,
  links: BugLinks = noLinks,
  setup: ProjectSetup = noSetup,
  policies: readonly SlaPolicy[] = [],
): BugDto {
  const { fields = [], states = [] } = setup(bug.projectId) ?? {};
  const user = (id: string) => users(id) ?? unknownUser(id);
  const project = projects(bug.projectId) ?? unknownProject(bug.projectId);
  return {
    _id: bug.id,
    number: bug.number,
    projectId: bug.projectId,
    project: { _id: bug.projectId, key: project.key, name: project.name },
    key: bugKey(project.key, bug.projectNumber),
    title: bug.title,
    description: bug.description,
    priority: bug.priority,
    severity: bug.severity,
    status: bug.status,
    module: bug.module,
    dueDate: bug.dueDate,
    createdAt: bug.createdAt,
    updatedAt: bug.updatedAt,
    createdBy: { _id: bug.reporterId, name: user(bug.reporterId).name },
    assignedTo: bug.assigneeIds.map((id) => {
      const u = user(id);
      return toUserDto({ id: u.id, name: u.name, profileImageURL: u.profileImageURL });
    }),
    checklist: bug.checklist.map((item) => ({
      _id: item.id,
      text: item.text,
      completed: item.completed,
      completedBy: item.completedBy ? { _id: item.completedBy, name: user(item.completedBy).name } : null,
      completedAt: item.completedAt,
    })),
    attachments: [...bug.attachments],
    files: bug.files.map((file) => toBugFileDto(bug.id, file)),
    code: { commits: [...bug.code.commits], pullRequests: [...bug.code.pullRequests] },
    archived: bug.archived,
    labels: labelRefs(bug.labelIds, labels),
    rank: rankOf(bug),
    relations: links.relations,
    parent: links.parent,
    subBugs: links.subBugs,
    milestoneId: bug.milestoneId,
    fields: shownFields(fields, bug.fieldValues),
    state: stateRef(stateOf(states, bug.status, bug.stateId)),
    estimate: bug.estimate,
    timeSpentMinutes: minutesOf(bug.worklog),
    respondedAt: bug.respondedAt,
    resolvedAt: bug.resolvedAt,
    sla: bugSla(bug, policyFor(bug, policies, { key: project.key, fields })),
    version,
  };
}
