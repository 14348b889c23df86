import { randomUUID } from 'node:crypto';
import { ConflictError, generalProject, projectDecider, streams } from '@bugtrail/domain';
import type { CommandHandler } from '@bugtrail/eventstore';
import type pg from 'pg';
import { ProjectBugNumbers } from './project-bug-numbers.js';
import { claimProjectKey, projectOfKey } from './project-keys.js';
import { ProjectRights } from './project-rights.js';

/**
 * The first start makes the default project, "General" (key BUG), by the system: every bug
 * from before projects, and every bug reported without `projectId`, belongs to it. Later
 * starts (and several processes starting at once) find it and append nothing. General's
 * numbers start after the bugs from before projects (ProjectBugNumbers.seedGeneral).
 */
export async function ensureGeneralProject(pool: pg.Pool, commands: CommandHandler): Promise<void> {
  await new ProjectBugNumbers(pool).seedGeneral();
  if ((await projectOfKey(pool, generalProject.key)) === generalProject.id) {
    await new ProjectRights(pool).fillFromStreams(commands);
    return;
  }
  try {
    await commands.handle(
      streams.project(generalProject.id),
      projectDecider,
      {
        type: 'CreateProject',
        data: {
          projectId: generalProject.id,
          key: generalProject.key,
          name: generalProject.name,
          description: generalProject.description,
          private: false,
          access: 'reporters',
        },
        metadata: { actor: null, now: new Date().toISOString() },
      },
      { actor: null, correlationId: randomUUID(), idempotencyKey: null },
      {
        mustBeNew: true,
        alongside: async (tx, { state }) => {
          await claimProjectKey(tx, generalProject.key, generalProject.id);
          await ProjectRights.write(tx, state);
        },
      },
    );
  } catch (error) {
    // Another process made it a moment ago.
    if (!(error instanceof ConflictError)) throw error;
  }
}
