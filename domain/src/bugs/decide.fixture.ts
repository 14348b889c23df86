/** Bug events, actors and commands for decide.unit.spec.ts (a test's private helper, not exported). */
import type { Actor } from '../core/event.js';
import { generalProject } from '../projects/default-project.js';
import type { BugEvent } from './bug-events.js';
import type { ProjectFacts } from './bug-project.js';
import type { BugCommand } from './decide.js';

export const NOW = '2030-06-15T12:00:00.000Z';
export const admin: Actor = { id: 'admin-1', role: 'admin' };
export const tester: Actor = { id: 'tester-1', role: 'tester' };
export const otherTester: Actor = { id: 'tester-2', role: 'tester' };
export const developer: Actor = { id: 'dev-1', role: 'developer' };
export const otherDeveloper: Actor = { id: 'dev-2', role: 'developer' };

export const BUG = 'bug-1';

/** The default project as write-api reads it: public, by the reporters' rules. */
export const general: ProjectFacts = {
  exists: true,
  id: generalProject.id,
  private: false,
  archived: false,
  members: {},
  access: 'reporters',
};

export function reported(overrides: Partial<Extract<BugEvent, { type: 'BugReported' }>['data']> = {}): BugEvent {
  return {
    type: 'BugReported',
    data: {
      bugId: BUG,
      title: 'Login button broken',
      description: 'Clicking login does nothing at all',
      priority: 'Medium',
      severity: 'Minor',
      status: 'Open',
      module: null,
      dueDate: null,
      reporterId: tester.id,
      ...overrides,
    },
  };
}

export const assigned = (...developerIds: string[]): BugEvent => ({
  type: 'DevelopersAssigned',
  data: { bugId: BUG, developerIds },
});

/** A reported bug assigned to `developer`, as most tests start. */
export const aReportedBug = (): BugEvent[] => [reported(), assigned(developer.id)];

type CommandOf<T extends BugCommand['type']> = Extract<BugCommand, { type: T }>;

export function command<T extends BugCommand['type']>(
  type: T,
  data: CommandOf<T>['data'],
  actor: Actor | null,
  now = NOW,
): CommandOf<T> {
  return { type, data, metadata: { actor, now } } as CommandOf<T>;
}
