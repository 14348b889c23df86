import { ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { assertNever, type Command, type Decider, type Event } from '../core/event.js';
import { type LabelEventData, type labelEventSchemas, labelMessages } from './label.schemas.js';

type LabelEventType = keyof typeof labelEventSchemas;
export type LabelEvent = { [Type in LabelEventType]: Event<Type, LabelEventData<Type>> }[LabelEventType];

/** One label's stream (`label-{id}`) folded. */
export type LabelState = Readonly<{
  exists: boolean;
  deleted: boolean;
  id: string;
  name: string;
  color: string;
  description: string;
}>;

export const initialLabelState = (): LabelState => ({
  exists: false,
  deleted: false,
  id: '',
  name: '',
  color: '',
  description: '',
});

export function evolveLabel(state: LabelState, event: LabelEvent): LabelState {
  switch (event.type) {
    case 'LabelCreated':
      return { exists: true, deleted: false, id: event.data.labelId, ...event.data };
    case 'LabelChanged': {
      const { labelId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'LabelDeleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

export type CreateLabel = Command<'CreateLabel', { labelId: string; name: string; color: string; description: string }>;
export type ChangeLabel = Command<
  'ChangeLabel',
  { labelId: string; name?: string | undefined; color?: string | undefined; description?: string | undefined }
>;
export type DeleteLabel = Command<'DeleteLabel', { labelId: string }>;
export type LabelCommand = CreateLabel | ChangeLabel | DeleteLabel;

function existing(state: LabelState): LabelState {
  if (!state.exists || state.deleted) throw new NotFoundError(labelMessages.notFound);
  return state;
}

export function decideLabel(command: LabelCommand, state: LabelState): LabelEvent[] {
  if (command.metadata.actor?.role !== 'admin') throw new ForbiddenError(labelMessages.adminsOnly);
  switch (command.type) {
    case 'CreateLabel':
      if (state.exists) throw new ConflictError(labelMessages.exists);
      return [{ type: 'LabelCreated', data: command.data }];
    case 'ChangeLabel': {
      const label = existing(state);
      const { labelId, ...asked } = command.data;
      const changes: { name?: string; color?: string; description?: string } = {};
      if (asked.name !== undefined && asked.name !== label.name) changes.name = asked.name;
      if (asked.color !== undefined && asked.color.toLowerCase() !== label.color.toLowerCase()) {
        changes.color = asked.color;
      }
      if (asked.description !== undefined && asked.description !== label.description) {
        changes.description = asked.description;
      }
      return Object.keys(changes).length > 0 ? [{ type: 'LabelChanged', data: { labelId, ...changes } }] : [];
    }
    case 'DeleteLabel': {
      const label = existing(state);
      return [{ type: 'LabelDeleted', data: { labelId: label.id, name: label.name } }];
    }
    default:
      return assertNever(command);
  }
}

export const labelDecider: Decider<LabelState, LabelCommand, LabelEvent> = {
  initialState: initialLabelState,
  evolve: evolveLabel,
  decide: decideLabel,
};
