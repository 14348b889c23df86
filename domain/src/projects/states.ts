import { z } from 'zod';
import { bugStatuses } from '../bugs/bug-vocabulary.js';
import { ConflictError, ValidationError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import {
  defaultStates,
  stateColorPattern,
  stateLimits,
  stateMessages,
  statesOr,
  type WorkflowState,
} from './state-values.js';

export * from './state-values.js';

/**
 * A project's workflow states (api.md "Custom fields, workflow states and time", issue 37): set
 * whole, in board order, by `PUT /api/projects/{id}/states`. An `_id` keeps a state (renamed,
 * recoloured, moved); one left out is removed, refused while a bug holds it.
 */
const id = z.string().min(1).max(100);
const stateSchema = z.object({
  id,
  name: z.string().min(1).max(stateLimits.nameMax),
  category: z.enum(bugStatuses),
  color: z.string().regex(stateColorPattern),
});
export const stateEventSchemas = {
  ProjectStatesSet: {
    version: 1,
    data: z.object({ projectId: id, states: z.array(stateSchema).min(3).max(stateLimits.perProject) }),
  },
} as const;

type StatesEvent = { type: 'ProjectStatesSet'; data: z.infer<(typeof stateEventSchemas)['ProjectStatesSet']['data']> };

/**
 * `newIds`: ids the server made, one per state sent (a state without `_id` takes its place's);
 * `holders`: how many bugs hold each state that would be removed, as write-api counted them.
 */
export type SetProjectStates = Command<
  'SetProjectStates',
  {
    states: readonly Readonly<{
      id?: string | undefined;
      name: string;
      category: string;
      color?: string | undefined;
    }>[];
    newIds: readonly string[];
    holders: Readonly<Record<string, number>>;
  }
>;

/** The states a `PUT` would remove or move to another category: write-api counts their holders before deciding. */
export function statesToCount(
  current: readonly WorkflowState[],
  sent: readonly { id?: string | undefined; category?: string }[],
): string[] {
  const byId = new Map(sent.flatMap((s) => (s.id ? [[s.id, s] as const] : [])));
  return statesOr(current)
    .filter((s) => !byId.has(s.id) || byId.get(s.id)!.category !== s.category)
    .map((s) => s.id);
}

const paletteFor = (category: string) => defaultStates.find((s) => s.category === category)?.color ?? '#64748b';

export function decideStates(
  projectId: string,
  current: readonly WorkflowState[],
  command: SetProjectStates,
): StatesEvent[] {
  const { states: sent, newIds, holders } = command.data;
  const all = statesOr(current);
  const known = new Map(all.map((s) => [s.id, s]));
  if (sent.length > stateLimits.perProject) throw ValidationError.field('states', stateMessages.tooMany);
  const next: WorkflowState[] = sent.map((s, index) => {
    const field = (name: string) => `states.${index}.${name}`;
    if (s.id !== undefined && !known.has(s.id)) throw ValidationError.field(field('_id'), stateMessages.unknown(s.id));
    const name = s.name.trim();
    if (!name) throw ValidationError.field(field('name'), stateMessages.nameRequired);
    if (name.length > stateLimits.nameMax) throw ValidationError.field(field('name'), stateMessages.nameTooLong);
    if (!(bugStatuses as readonly string[]).includes(s.category)) {
      throw ValidationError.field(field('category'), stateMessages.categoryInvalid);
    }
    const color = (s.color ?? known.get(s.id ?? '')?.color ?? paletteFor(s.category)).toLowerCase();
    if (!stateColorPattern.test(color)) throw ValidationError.field(field('color'), stateMessages.colorInvalid);
    return { id: s.id ?? newIds[index]!, name, category: s.category as WorkflowState['category'], color };
  });
  const ids = new Set<string>();
  const names = new Set<string>();
  for (const state of next) {
    if (ids.has(state.id)) throw ValidationError.field('states', stateMessages.unknown(state.id));
    if (names.has(state.name.toLowerCase())) throw ValidationError.field('states', stateMessages.nameTaken(state.name));
    ids.add(state.id);
    names.add(state.name.toLowerCase());
  }
  for (const category of bugStatuses) {
    if (!next.some((s) => s.category === category)) {
      throw ValidationError.field('states', stateMessages.categoryEmpty(category));
    }
  }
  for (const gone of all.filter((s) => !ids.has(s.id))) {
    const count = holders[gone.id] ?? 0;
    if (count > 0) throw new ConflictError(stateMessages.inUse(gone.name, count));
  }
  // A state kept in another category would move its bugs' statuses unseen: refused like a removal.
  for (const state of next) {
    const was = known.get(state.id);
    if (was && was.category !== state.category && (holders[state.id] ?? 0) > 0) {
      throw new ConflictError(stateMessages.inUse(was.name, holders[state.id]!));
    }
  }
  const same =
    next.length === all.length &&
    next.every((s, i) => {
      const o = all[i]!;
      return s.id === o.id && s.name === o.name && s.category === o.category && s.color === o.color;
    });
  return same ? [] : [{ type: 'ProjectStatesSet', data: { projectId, states: next } }];
}

// ── bodies ──────────────────────────────────────────────────────────────────────

/** `PUT /api/projects/{id}/states`. */
export const setStatesBody = z.object({
  states: z
    .array(
      z.object({
        _id: z.string().max(100).optional(),
        name: z.string({ error: stateMessages.nameRequired }).max(stateLimits.nameMax * 4, stateMessages.nameTooLong),
        category: z.string({ error: stateMessages.categoryInvalid }).max(50),
        color: z.string({ error: stateMessages.colorInvalid }).max(20).optional(),
      }),
      { error: stateMessages.listRequired },
    )
    .max(stateLimits.perProject * 2, stateMessages.tooMany),
});

export const stateDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  category: z.enum(bugStatuses),
  color: z.string().describe('#rrggbb'),
});
