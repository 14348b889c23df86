import {
  type AutomationAction,
  type AutomationWhen,
  automationLimits,
  type BugFacts,
  type BugState,
  bugFacts,
  bugKey,
  conditionsHold,
  evolveBugWith,
  evolveLabel,
  evolveProject,
  initialLabelState,
  initialProjectState,
  type LabelState,
  type ProjectState,
  type ReportedBug,
  triggerOf,
} from '@bugtrail/domain';
import { type EventStore, type RecordedEvent, START } from '@bugtrail/eventstore';

/** A rule to replay: a stored one (its id: its own changes never trigger it), or a draft (none). */
export type SimulatedRule = Readonly<{
  id: string | null;
  projectId: string | null;
  when: AutomationWhen;
  actions: readonly AutomationAction[];
}>;

export type SimulatedAction = { bugId: string; key: string | null; at: string; action: AutomationAction };
export type Simulation = { matched: number; actions: SimulatedAction[]; truncated: boolean; eventsRead: number };

/** At most this many actions are answered (`matched` counts them all). */
export const SIMULATED_ACTIONS_MAX = 5000;
const PAGE = 2000;

/**
 * What a rule would have done over a stretch of history (api.md "Automation rules"), changing
 * nothing: the log read once from its start, bugs, projects and labels folded in memory as they
 * were, and each triggering event whose time falls in [from, to) matched on the bug as its whole
 * command left it, as the reactor matches it (automation-reactor.ts), with the same conditions.
 */
export async function simulateRule(
  store: EventStore,
  rule: SimulatedRule,
  window: { from: Date; to: Date },
): Promise<Simulation> {
  const bugs = new Map<string, BugState>();
  const projects = new Map<string, ProjectState>();
  const labels = new Map<string, LabelState>();
  const from = window.from.toISOString();
  const to = window.to.toISOString();
  const out: Simulation = { matched: 0, actions: [], truncated: false, eventsRead: 0 };
  /** Triggers seen in the current command, matched once its last event is folded. */
  let pending: RecordedEvent[] = [];

  const factsOf = (bug: ReportedBug): BugFacts =>
    bugFacts(bug, projects.get(bug.projectId) ?? initialProjectState(), (id) => labels.get(id)?.name ?? '');
  const settle = () => {
    for (const trigger of pending) {
      const bug = bugs.get(trigger.streamId.slice(4));
      if (bug?.kind !== 'reported' || bug.deleted) continue;
      if (rule.projectId !== null && bug.projectId !== rule.projectId) continue;
      if (!conditionsHold(rule.when.conditions, factsOf(bug))) continue;
      out.matched++;
      const key = bugKey(projects.get(bug.projectId)?.key ?? '', bug.projectNumber);
      for (const action of rule.actions) {
        if (out.actions.length >= SIMULATED_ACTIONS_MAX) {
          out.truncated = true;
          break;
        }
        out.actions.push({ bugId: bug.id, key, at: trigger.metadata.occurredAt, action });
      }
    }
    pending = [];
  };

  for (let position = START; ; ) {
    const page = await store.readAll(position, PAGE);
    if (page.length === 0) break;
    for (const event of page) {
      out.eventsRead++;
      if (pending.length > 0 && !sameCommand(pending[0]!, event)) settle();
      const stream = event.streamId;
      if (stream.startsWith('bug-')) {
        const id = stream.slice(4);
        bugs.set(id, evolveBugWith(bugs.get(id) ?? { kind: 'empty' }, event));
        if (isTrigger(event, rule) && event.metadata.occurredAt >= from && event.metadata.occurredAt < to) {
          pending.push(event);
        }
      } else if (stream.startsWith('project-')) {
        const id = stream.slice(8);
        projects.set(id, evolveProject(projects.get(id) ?? initialProjectState(), event as never));
      } else if (stream.startsWith('label-')) {
        const id = stream.slice(6);
        labels.set(id, evolveLabel(labels.get(id) ?? initialLabelState(), event as never));
      }
    }
    position = page.at(-1)!.position;
  }
  settle();
  return out;
}

/**
 * Whether two events of one stream were appended by one command: they share their correlation,
 * their time and their rule mark (none for a person's). A trigger is matched on the bug as the
 * last of them left it (a report with custom fields is `BugReported` then `BugFieldsChanged`).
 */
export const sameCommand = (a: RecordedEvent, b: RecordedEvent): boolean =>
  a.streamId === b.streamId &&
  a.metadata.correlationId === b.metadata.correlationId &&
  a.metadata.occurredAt === b.metadata.occurredAt &&
  JSON.stringify(a.metadata.rule ?? null) === JSON.stringify(b.metadata.rule ?? null);

/** A bug event that triggers the rule: its event, not the rule's own change, not past the chain's end. */
export function isTrigger(event: RecordedEvent, rule: Pick<SimulatedRule, 'id' | 'when'>): boolean {
  if (triggerOf(event.type) !== rule.when.event) return false;
  const made = event.metadata.rule;
  if (made && (made.depth >= automationLimits.chainDepth || made._id === rule.id)) return false;
  return true;
}
