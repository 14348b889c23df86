import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { type Actor, assertNever, type Command, type Decider, type Event, type EventMetadata } from '../core/event.js';
import type { ProjectState } from '../projects/project.js';
import { seesProject } from '../projects/project.js';
import { type MilestoneEventData, type milestoneEventSchemas, milestoneMessages } from './milestone.schemas.js';

type MilestoneEventType = keyof typeof milestoneEventSchemas;
export type MilestoneEvent = {
  [Type in MilestoneEventType]: Event<Type, MilestoneEventData<Type>>;
}[MilestoneEventType];
type WithMeta = MilestoneEvent & { readonly metadata?: Pick<EventMetadata, 'occurredAt'> };

export type MilestoneState = Readonly<{
  exists: boolean;
  deleted: boolean;
  id: string;
  projectId: string;
  name: string;
  description: string;
  startDate: string | null;
  dueDate: string | null;
  closedAt: string | null;
}>;

export const initialMilestoneState = (): MilestoneState => ({
  exists: false,
  deleted: false,
  id: '',
  projectId: '',
  name: '',
  description: '',
  startDate: null,
  dueDate: null,
  closedAt: null,
});

export function evolveMilestone(state: MilestoneState, event: WithMeta): MilestoneState {
  switch (event.type) {
    case 'MilestoneCreated': {
      const { milestoneId, ...rest } = event.data;
      return { ...initialMilestoneState(), ...rest, exists: true, id: milestoneId };
    }
    case 'MilestoneChanged': {
      const { milestoneId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'MilestoneClosed':
      return { ...state, closedAt: event.metadata?.occurredAt ?? new Date(0).toISOString() };
    case 'MilestoneReopened':
      return { ...state, closedAt: null };
    case 'MilestoneDeleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

/** What a milestone decision needs of its project, as write-api read it. */
export type MilestoneProject = Pick<ProjectState, 'exists' | 'id' | 'private' | 'members'>;

type Dates = { startDate?: string | null | undefined; dueDate?: string | null | undefined };
export type CreateMilestone = Command<
  'CreateMilestone',
  Dates & { milestoneId: string; project: MilestoneProject; name: string; description: string }
>;
export type UpdateMilestone = Command<
  'UpdateMilestone',
  Dates & {
    project: MilestoneProject;
    name?: string | undefined;
    description?: string | undefined;
    closed?: boolean | undefined;
  }
>;
/** Its bugs leave it, each by an event of its own (write-api's cleanup, as a deleted label's). */
export type DeleteMilestone = Command<'DeleteMilestone', { project: MilestoneProject }>;
export type MilestoneCommand = CreateMilestone | UpdateMilestone | DeleteMilestone;

/** Admins and the project's leads; to one who cannot see the project, neither it nor its milestones exist. */
function assertPlanner(actor: Actor | null, project: MilestoneProject, notFound: string): void {
  if (!actor) throw new ForbiddenError(milestoneMessages.adminsAndLeads);
  if (!project.exists || !seesProject(actor, project)) throw new NotFoundError(notFound);
  if (actor.role !== 'admin' && project.members[actor.id] !== 'lead') {
    throw new ForbiddenError(milestoneMessages.adminsAndLeads);
  }
}

function checkDates(startDate: string | null, dueDate: string | null): void {
  if (startDate && dueDate && startDate > dueDate)
    throw ValidationError.field('startDate', milestoneMessages.startAfterDue);
}

export function decideMilestone(command: MilestoneCommand, state: MilestoneState): MilestoneEvent[] {
  const actor = command.metadata.actor;
  switch (command.type) {
    case 'CreateMilestone': {
      const d = command.data;
      assertPlanner(actor, d.project, 'Project not found');
      if (state.exists) return [];
      checkDates(d.startDate ?? null, d.dueDate ?? null);
      return [
        {
          type: 'MilestoneCreated',
          data: {
            milestoneId: d.milestoneId,
            projectId: d.project.id,
            name: d.name,
            description: d.description,
            startDate: d.startDate ?? null,
            dueDate: d.dueDate ?? null,
          },
        },
      ];
    }
    case 'UpdateMilestone': {
      if (!state.exists || state.deleted) throw new NotFoundError(milestoneMessages.notFound);
      const d = command.data;
      assertPlanner(actor, d.project, milestoneMessages.notFound);
      const changes: { name?: string; description?: string; startDate?: string | null; dueDate?: string | null } = {};
      if (d.name !== undefined && d.name !== state.name) changes.name = d.name;
      if (d.description !== undefined && d.description !== state.description) changes.description = d.description;
      if (d.startDate !== undefined && d.startDate !== state.startDate) changes.startDate = d.startDate;
      if (d.dueDate !== undefined && d.dueDate !== state.dueDate) changes.dueDate = d.dueDate;
      checkDates(
        changes.startDate === undefined ? state.startDate : changes.startDate,
        changes.dueDate === undefined ? state.dueDate : changes.dueDate,
      );
      const events: MilestoneEvent[] =
        Object.keys(changes).length > 0
          ? [{ type: 'MilestoneChanged', data: { milestoneId: state.id, ...changes } }]
          : [];
      if (d.closed === true && state.closedAt === null) {
        events.push({ type: 'MilestoneClosed', data: { milestoneId: state.id } });
      }
      if (d.closed === false && state.closedAt !== null) {
        events.push({ type: 'MilestoneReopened', data: { milestoneId: state.id } });
      }
      return events;
    }
    case 'DeleteMilestone': {
      if (!state.exists || state.deleted) throw new NotFoundError(milestoneMessages.notFound);
      assertPlanner(actor, command.data.project, milestoneMessages.notFound);
      return [{ type: 'MilestoneDeleted', data: { milestoneId: state.id } }];
    }
    default:
      return assertNever(command);
  }
}

export const milestoneDecider: Decider<MilestoneState, MilestoneCommand, MilestoneEvent> = {
  initialState: initialMilestoneState,
  evolve: evolveMilestone,
  decide: decideMilestone,
};
