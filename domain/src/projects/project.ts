import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { type Actor, assertNever, type Command, type Decider, type Event, type EventMetadata } from '../core/event.js';
import { userMessages } from '../users/user-vocabulary.js';
import { decideFields, evolveFields, type FieldCommand, type FieldDef } from './fields.js';
import {
  type ProjectAccess,
  type ProjectEventData,
  type ProjectRole,
  type projectEventSchemas,
  projectKeyIssue,
  projectMessages,
  seesEveryProject,
} from './project.schemas.js';
import { decideStates, type SetProjectStates, type WorkflowState } from './states.js';

type ProjectEventType = keyof typeof projectEventSchemas;
export type ProjectEvent = { [Type in ProjectEventType]: Event<Type, ProjectEventData<Type>> }[ProjectEventType];
type ProjectEventWithMeta = ProjectEvent & { readonly metadata?: Pick<EventMetadata, 'occurredAt'> };

/** One project's stream (`project-{id}`) folded. `keys`: every key it has had, the current one last. */
export type ProjectState = Readonly<{
  exists: boolean;
  id: string;
  key: string;
  keys: readonly string[];
  name: string;
  description: string;
  private: boolean;
  access: ProjectAccess;
  archived: boolean;
  createdAt: string;
  /** By user id. */
  members: Readonly<Record<string, ProjectRole>>;
  /** Its custom fields (fields.ts), removed ones flagged. */
  fields: readonly FieldDef[];
  /** Its workflow states in board order (states.ts); empty: the defaults, one per category. */
  states: readonly WorkflowState[];
}>;

export const initialProjectState = (): ProjectState => ({
  exists: false,
  id: '',
  key: '',
  keys: [],
  name: '',
  description: '',
  private: false,
  access: 'reporters',
  archived: false,
  createdAt: '',
  members: {},
  fields: [],
  states: [],
});

export function evolveProject(state: ProjectState, event: ProjectEventWithMeta): ProjectState {
  switch (event.type) {
    case 'ProjectCreated': {
      const d = event.data;
      const createdAt = event.metadata?.occurredAt ?? new Date(0).toISOString();
      return { ...initialProjectState(), ...d, exists: true, id: d.projectId, keys: [d.key], createdAt };
    }
    case 'ProjectRenamed':
      return { ...state, name: event.data.name };
    case 'ProjectDescriptionChanged':
      return { ...state, description: event.data.description };
    case 'ProjectKeyChanged':
      return {
        ...state,
        key: event.data.key,
        keys: [...state.keys.filter((k) => k !== event.data.key), event.data.key],
      };
    case 'ProjectPrivacyChanged':
      return { ...state, private: event.data.private };
    case 'ProjectAccessChanged':
      return { ...state, access: event.data.access };
    case 'ProjectArchived':
      return { ...state, archived: true };
    case 'ProjectRestored':
      return { ...state, archived: false };
    case 'ProjectMemberAdded':
    case 'ProjectMemberRoleChanged':
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
    case 'ProjectMemberRemoved': {
      const { [event.data.userId]: _gone, ...members } = state.members;
      return { ...state, members };
    }
    case 'ProjectFieldAdded':
    case 'ProjectFieldChanged':
    case 'ProjectFieldRemoved':
      return { ...state, fields: evolveFields(state.fields, event) };
    case 'ProjectStatesSet':
      return { ...state, states: event.data.states };
    default:
      return assertNever(event);
  }
}

/** `actor: null` is the system (the default project made at the first start). */
export type CreateProject = Command<
  'CreateProject',
  { projectId: string; key: string; name: string; description: string; private: boolean; access: ProjectAccess }
>;
/** Only what is set changes. `isDefault`: write-api looked up whether it is the default project. */
export type UpdateProject = Command<
  'UpdateProject',
  Partial<{
    key: string;
    name: string;
    description: string;
    private: boolean;
    archived: boolean;
    access: ProjectAccess;
    isDefault: boolean;
  }>
>;
/** `userKnown`: write-api looked the person up (an unknown one is 404). */
export type SetProjectMember = Command<'SetProjectMember', { userId: string; role: ProjectRole; userKnown: boolean }>;
export type RemoveProjectMember = Command<'RemoveProjectMember', { userId: string }>;
export type ProjectCommand =
  | CreateProject
  | UpdateProject
  | SetProjectMember
  | RemoveProjectMember
  | FieldCommand
  | SetProjectStates;

/** Whether `actor` sees the project at all: public ones everyone, a private one its members, admins and auditors. */
export function seesProject(actor: Actor, project: Pick<ProjectState, 'private' | 'members'>): boolean {
  return !project.private || seesEveryProject(actor) || actor.id in project.members;
}

/** Admins and the project's leads change it; to one who cannot see it, it does not exist. */
function assertManager(actor: Actor | null, state: ProjectState): void {
  if (!state.exists) throw new NotFoundError(projectMessages.notFound);
  if (actor === null) return;
  if (!seesProject(actor, state)) throw new NotFoundError(projectMessages.notFound);
  if (actor.role === 'auditor') throw new ForbiddenError(userMessages.readOnlyRole);
  if (actor.role !== 'admin' && state.members[actor.id] !== 'lead') {
    throw new ForbiddenError(projectMessages.adminsAndLeads);
  }
}

function createProject(command: CreateProject, state: ProjectState): ProjectEvent[] {
  const actor = command.metadata.actor;
  if (actor !== null && actor.role !== 'admin') throw new ForbiddenError(projectMessages.adminsCreate);
  const d = command.data;
  const keyIssue = projectKeyIssue(d.key);
  if (keyIssue) throw ValidationError.field('key', keyIssue);
  if (state.exists) throw new ConflictError(projectMessages.alreadyExists);
  return [{ type: 'ProjectCreated', data: { ...d } }];
}

function updateProject(command: UpdateProject, state: ProjectState): ProjectEvent[] {
  assertManager(command.metadata.actor, state);
  const d = command.data;
  const projectId = state.id;
  const events: ProjectEvent[] = [];
  if (d.key !== undefined && d.key !== state.key) {
    const keyIssue = projectKeyIssue(d.key);
    if (keyIssue) throw ValidationError.field('key', keyIssue);
    events.push({ type: 'ProjectKeyChanged', data: { projectId, key: d.key, previousKey: state.key } });
  }
  if (d.name !== undefined && d.name !== state.name)
    events.push({ type: 'ProjectRenamed', data: { projectId, name: d.name } });
  if (d.description !== undefined && d.description !== state.description) {
    events.push({ type: 'ProjectDescriptionChanged', data: { projectId, description: d.description } });
  }
  if (d.private !== undefined && d.private !== state.private) {
    events.push({ type: 'ProjectPrivacyChanged', data: { projectId, private: d.private } });
  }
  if (d.access !== undefined && d.access !== state.access) {
    // The spec's clients report into the default project without knowing projects: its rules stay theirs.
    if (d.access === 'team' && d.isDefault) throw new ConflictError(projectMessages.defaultKeepsReporters);
    events.push({ type: 'ProjectAccessChanged', data: { projectId, access: d.access } });
  }
  if (d.archived !== undefined && d.archived !== state.archived) {
    events.push({ type: d.archived ? 'ProjectArchived' : 'ProjectRestored', data: { projectId } });
  }
  return events;
}

const leads = (state: ProjectState) => Object.entries(state.members).filter(([, role]) => role === 'lead');

/** The last lead stays one: demoting or removing them would leave nobody but admins to run it. */
function assertKeepsALead(state: ProjectState, userId: string): void {
  const all = leads(state);
  if (all.length === 1 && all[0]![0] === userId) throw new ConflictError(projectMessages.lastLead);
}

function setMember(command: SetProjectMember, state: ProjectState): ProjectEvent[] {
  assertManager(command.metadata.actor, state);
  const { userId, role, userKnown } = command.data;
  if (!userKnown) throw new NotFoundError(projectMessages.userNotFound);
  const now = state.members[userId];
  if (now === role) return [];
  if (now === undefined) return [{ type: 'ProjectMemberAdded', data: { projectId: state.id, userId, role } }];
  if (role === 'member') assertKeepsALead(state, userId);
  return [{ type: 'ProjectMemberRoleChanged', data: { projectId: state.id, userId, role } }];
}

function removeMember(command: RemoveProjectMember, state: ProjectState): ProjectEvent[] {
  assertManager(command.metadata.actor, state);
  const { userId } = command.data;
  if (!(userId in state.members)) throw new NotFoundError(projectMessages.memberNotFound);
  assertKeepsALead(state, userId);
  return [{ type: 'ProjectMemberRemoved', data: { projectId: state.id, userId } }];
}

export function decideProject(command: ProjectCommand, state: ProjectState): ProjectEvent[] {
  switch (command.type) {
    case 'CreateProject':
      return createProject(command, state);
    case 'UpdateProject':
      return updateProject(command, state);
    case 'SetProjectMember':
      return setMember(command, state);
    case 'RemoveProjectMember':
      return removeMember(command, state);
    case 'AddProjectField':
    case 'ChangeProjectField':
    case 'RemoveProjectField':
      assertManager(command.metadata.actor, state);
      return decideFields(state.id, state.fields, command);
    case 'SetProjectStates':
      assertManager(command.metadata.actor, state);
      return decideStates(state.id, state.states, command);
    default:
      return assertNever(command);
  }
}

export const projectDecider: Decider<ProjectState, ProjectCommand, ProjectEvent> = {
  initialState: initialProjectState,
  evolve: evolveProject,
  decide: decideProject,
};
