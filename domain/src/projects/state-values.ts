import type { BugStatus } from '../bugs/bug-vocabulary.js';

/**
 * Workflow states (api.md "Custom fields, workflow states and time", issue 37), without zod: a
 * project's states in board order, each in one of the spec's three categories. A bug's `status`
 * is always its state's category, so every spec client, count and chart keeps working; a bug
 * holds a state of its own only once someone chose one (else it is in its category's first).
 */
export type WorkflowState = Readonly<{ id: string; name: string; category: BugStatus; color: string }>;

export const stateLimits = { nameMax: 40, perProject: 30 } as const;
export const stateColorPattern = /^#[0-9a-f]{6}$/;

export const stateMessages = {
  listRequired: 'states must be a list of states',
  nameRequired: 'State name is required',
  nameTooLong: `State name must be at most ${stateLimits.nameMax} characters`,
  nameTaken: (name: string) => `Two states are called ${name}`,
  categoryInvalid: 'category must be Open, In Progress or Closed',
  colorInvalid: 'color must be #rrggbb',
  tooMany: `A project has at most ${stateLimits.perProject} states`,
  categoryEmpty: (category: string) => `Each category needs a state: none is ${category}`,
  unknown: (id: string) => `Unknown state: ${id}`,
  inUse: (name: string, count: number) =>
    `${name} still holds ${count === 1 ? '1 bug' : `${count} bugs`}: move ${count === 1 ? 'it' : 'them'} to another state first`,
  notFound: 'State not found',
  cannotChange: "You don't have permission to change the status of this bug",
} as const;

/** A project's states until it sets its own: one per category, named as the category. */
export const defaultStates: readonly WorkflowState[] = [
  { id: 'open', name: 'Open', category: 'Open', color: '#64748b' },
  { id: 'in_progress', name: 'In Progress', category: 'In Progress', color: '#0891b2' },
  { id: 'closed', name: 'Closed', category: 'Closed', color: '#65a30d' },
];

/** The states a project has (its own, else the defaults). */
export const statesOr = (states: readonly WorkflowState[]): readonly WorkflowState[] =>
  states.length > 0 ? states : defaultStates;

/** The state a bug is in: the one it chose while that exists in its category, else its category's first. */
export function stateOf(states: readonly WorkflowState[], status: BugStatus, stateId: string | null): WorkflowState {
  const all = statesOr(states);
  const chosen = stateId ? all.find((s) => s.id === stateId && s.category === status) : undefined;
  return chosen ?? all.find((s) => s.category === status) ?? defaultStates.find((s) => s.category === status)!;
}

/** A bug's state in its answers. */
export type StateRef = { _id: string; name: string; category: BugStatus };
export const stateRef = (state: WorkflowState): StateRef => ({
  _id: state.id,
  name: state.name,
  category: state.category,
});

/** A state in `GET /api/projects/{id}/states` and the answer of `PUT`. */
export type StateDto = StateRef & { color: string };
export const toStateDto = (state: WorkflowState): StateDto => ({ ...stateRef(state), color: state.color });
