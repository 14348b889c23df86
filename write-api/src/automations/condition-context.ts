import {
  type Actor,
  type AutomationCondition,
  type AutomationContext,
  liveFields,
  liveOptions,
  NotFoundError,
  type ProjectState,
  projectMessages,
  seesProject,
} from '@bugtrail/domain';
import type { WriteApiDeps } from '../deps.js';
import { loadProject } from '../projects/project-facts.js';
import { projectOfKey } from '../projects/project-keys.js';

/**
 * What conditions on bugs (an automation rule's, an SLA policy's) are checked against, and the
 * project such words are written for: shared by both kinds of command.
 */

/** Every project: ids and every key each has had. */
async function allProjects(deps: WriteApiDeps): Promise<{ id: string; key: string }[]> {
  const { rows } = await deps.pool.query<{ project_id: string; key: string }>(
    'select project_id, key from write_api.project_keys',
  );
  return rows.map((r) => ({ id: r.project_id, key: r.key }));
}

/** The project a rule or policy names (its id or key, any case), as the caller may see it; 404 when none. */
export async function namedProject(deps: WriteApiDeps, idOrKey: string, actor: Actor): Promise<ProjectState> {
  const state = await loadProject(deps, (await projectOfKey(deps.pool, idOrKey.toUpperCase())) ?? idOrKey);
  if (!state.exists || !seesProject(actor, state)) throw new NotFoundError(projectMessages.notFound);
  return state;
}

/** The projects among `project` the actor leads (what the deciders check a lead's rights against). */
export const ledBy = (actor: Actor, project: ProjectState | null): string[] =>
  project && project.members[actor.id] === 'lead' ? [project.id] : [];

/** Custom fields by key (the project's, or every project's for words of all), labels and projects that exist. */
export async function conditionContext(deps: WriteApiDeps, project: ProjectState | null): Promise<AutomationContext> {
  const projects = await allProjects(deps);
  const states = project
    ? [project]
    : await Promise.all([...new Set(projects.map((p) => p.id))].map((id) => loadProject(deps, id)));
  const fields = new Map<string, { type: never; name: string; options: string[] }[]>();
  for (const state of states)
    for (const field of liveFields(state.fields)) {
      const def = { type: field.type as never, name: field.name, options: liveOptions(field).map((o) => o.name) };
      fields.set(field.key, [...(fields.get(field.key) ?? []), def]);
    }
  const { rows: labels } = await deps.pool.query<{ id: string; name: string }>(
    'select id, name from write_api.labels where not deleted',
  );
  return { fields, labels, projects };
}

/**
 * Conditions as kept: labels and projects by id (a name or key may change; the id stays). A value
 * that names nothing stays as written, for the decider to refuse by name.
 */
export function conditionsById(
  conditions: readonly AutomationCondition[],
  context: AutomationContext,
): AutomationCondition[] {
  const lower = (v: string | number) => String(v).trim().toLowerCase();
  const idOf = (field: string, value: string | number): string | number => {
    if (field === 'labels') {
      return (
        context.labels.find((l) => l.id === value)?.id ??
        context.labels.find((l) => lower(l.name) === lower(value))?.id ??
        value
      );
    }
    if (field === 'project') {
      return (
        context.projects.find((p) => p.id === value)?.id ??
        context.projects.find((p) => lower(p.key) === lower(value))?.id ??
        value
      );
    }
    return value;
  };
  return conditions.map((c) => {
    if (c.field !== 'labels' && c.field !== 'project') return c;
    const value = Array.isArray(c.value) ? c.value.map((v) => idOf(c.field, v)) : idOf(c.field, c.value);
    return { ...c, value };
  });
}
