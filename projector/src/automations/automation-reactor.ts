import {
  type Actor,
  type AutomationAction,
  type AutomationEvent,
  type AutomationState,
  automationDecider,
  type BugFacts,
  type BugState,
  bugDecider,
  bugFacts,
  bugKey,
  bugStreamDecider,
  ConflictError,
  commentDecider,
  conditionsHold,
  type Decider,
  DomainError,
  decideBugLabels,
  decideBugMilestone,
  evolveAutomation,
  evolveBugWith,
  initialAutomationState,
  initialBugState,
  labelDecider,
  milestoneDecider,
  type ProjectState,
  projectDecider,
  type ReportedBug,
  streams,
  triggerOf,
  userDecider,
} from '@bugtrail/domain';
import { type CommandHandler, deriveEventId, type EventStore, type RecordedEvent } from '@bugtrail/eventstore';
import type { Logger } from '@bugtrail/platform';
import type pg from 'pg';
import { LeaderLoop } from '../runtime/leader-loop.js';
import { reactorPosition, saveReactorPosition, startAtHeadOnFirstRun } from '../runtime/reactor-checkpoint.js';
import { isTrigger, sameCommand } from './simulate.js';

const LEADER_LOCK = 7310090;
const REACTOR = 'automations';
const RULE_EVENTS: ReadonlySet<string> = new Set([
  'AutomationCreated',
  'AutomationChanged',
  'AutomationPaused',
  'AutomationDeleted',
  'AutomationRan',
]);

/** A rule as the reactor knows it at a point of the log: its state, its author, and since when it acts. */
type Rule = { state: AutomationState; authorId: string | null; activeFrom: string };

type Outcome = {
  type: AutomationAction['type'];
  outcome: 'done' | 'unchanged' | 'failed';
  message?: string;
  userIds?: string[];
  role?: 'admin' | 'developer' | 'tester';
};

export type AutomationReactorOptions = {
  logger: Logger;
  batchSize?: number;
  /** How many bugs' triggers run side by side (default 8). */
  concurrency?: number;
};

/**
 * Automation rules (api.md "Automation rules", ADR 029): a reactor on the event log with its own
 * checkpoint, one leader at a time beside the projector. It folds the rules from the log as it
 * reads it, so a rule acts on the bug events recorded after it was created or enabled. For each
 * triggering event, each matching rule's actions go through the one command handler with the
 * rule's author as the actor and `metadata.rule` on every event; ids derive from the trigger, the
 * rule and the action, so a run repeated after a crash or by another leader appends nothing new.
 * What it did is recorded as the rule's `AutomationRan` (five failing runs in a row pause it).
 */
export class AutomationReactor {
  private readonly leader: LeaderLoop;
  private readonly store: EventStore;
  private subscription: { close(): Promise<void> } | null = null;
  private readonly rules = new Map<string, Rule>();

  constructor(
    private readonly commands: CommandHandler,
    private readonly pool: pg.Pool,
    private readonly options: AutomationReactorOptions,
  ) {
    this.store = commands.store;
    this.leader = new LeaderLoop(
      pool,
      LEADER_LOCK,
      'automation reactor',
      options.logger,
      () => this.lead(),
      () => void this.subscription?.close(),
    );
  }

  private get concurrency(): number {
    return this.options.concurrency ?? 8;
  }

  /** On the very first start, begin at the store's head: rules act only on what comes after. */
  async prepare(): Promise<void> {
    await startAtHeadOnFirstRun(this.store, this.pool, REACTOR);
  }

  start(): void {
    this.leader.start();
  }

  async stop(): Promise<void> {
    await this.leader.stop(() => void this.subscription?.close());
  }

  private async lead(): Promise<void> {
    const from = await reactorPosition(this.pool, REACTOR);
    if (!this.leader.isLeading || !from) return;
    await this.loadRules(from);
    const subscription = this.store.subscribe(from, { batchSize: this.options.batchSize ?? 200 });
    this.subscription = subscription;
    try {
      for await (const batch of subscription) {
        if (!this.leader.isLeading) break;
        await this.react(batch);
      }
    } finally {
      await subscription.close();
      this.subscription = null;
    }
  }

  /** The rules as they were at `upTo` (the checkpoint): their events read back, oldest first. */
  private async loadRules(upTo: string): Promise<void> {
    this.rules.clear();
    const events: RecordedEvent[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await this.store.readAllBackwards({
        ...(before ? { before } : {}),
        limit: 1000,
        streamPrefix: 'automation-',
      });
      events.push(...page.filter((e) => e.position <= upTo));
      if (page.length < 1000) break;
      before = page.at(-1)!.position;
    }
    for (const event of events.reverse()) this.foldRule(event);
  }

  private foldRule(event: RecordedEvent): void {
    if (!RULE_EVENTS.has(event.type)) return;
    const id = (event.data as { automationId: string }).automationId;
    const known = this.rules.get(id);
    const before = known?.state ?? initialAutomationState();
    const state = evolveAutomation(before, event as unknown as AutomationEvent);
    const wasActive = before.enabled && !before.deleted;
    const isActive = state.enabled && !state.deleted;
    this.rules.set(id, {
      state,
      authorId: known?.authorId ?? (event.type === 'AutomationCreated' ? event.metadata.actorId : null),
      // Acts on events after the one that enabled it (a rule enabled again does not look back).
      activeFrom: isActive && !wasActive ? event.position : (known?.activeFrom ?? event.position),
    });
  }

  /**
   * One batch in log order: rules change as their events come; each trigger runs the rules active
   * then. The triggers of different bugs run side by side (up to `concurrency` bugs at once), each
   * bug's in log order; the checkpoint moves once all of the batch is done.
   */
  async react(batch: readonly RecordedEvent[]): Promise<void> {
    const last = batch.at(-1);
    if (!last) return;
    const byBug = new Map<string, { event: RecordedEvent; trigger: string; rules: [string, Rule][] }[]>();
    for (const event of batch) {
      if (event.streamId.startsWith('automation-')) {
        this.foldRule(event);
        continue;
      }
      const trigger = triggerOf(event.type);
      if (!trigger || !event.streamId.startsWith('bug-')) continue;
      // The same test as a simulation's: its event, not its own change, not past the chain's end.
      const rules = [...this.rules.entries()].filter(
        ([id, rule]) =>
          rule.state.enabled &&
          !rule.state.deleted &&
          rule.activeFrom < event.position &&
          isTrigger(event, { id, when: rule.state.when }),
      );
      if (rules.length === 0) continue;
      const jobs = byBug.get(event.streamId) ?? [];
      jobs.push({ event, trigger, rules });
      byBug.set(event.streamId, jobs);
    }
    const queues = [...byBug.values()];
    const worker = async () => {
      for (let jobs = queues.shift(); jobs; jobs = queues.shift()) {
        for (const { event, trigger, rules } of jobs) {
          const facts = await this.factsAt(event);
          if (!facts) continue;
          for (const [id, rule] of rules) {
            if (rule.state.projectId !== null && rule.state.projectId !== facts.bug.projectId) continue;
            if (!conditionsHold(rule.state.when.conditions, facts.facts)) continue;
            // Paused meanwhile by failing runs of this batch: it acts no more.
            if (this.rules.get(id)?.state.paused && !rule.state.paused) continue;
            await this.run(id, rule, event, facts.bug, trigger);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, queues.length) }, worker));
    await saveReactorPosition(this.pool, REACTOR, last.position);
  }

  /**
   * The bug as `event`'s command left it (its stream folded up to the last event that command
   * appended: a report with custom fields is `BugReported` then `BugFieldsChanged`), and what
   * conditions read of it.
   */
  private async factsAt(event: RecordedEvent): Promise<{ bug: ReportedBug; facts: BugFacts } | null> {
    const history = await this.store.readStream(event.streamId);
    let state: BugState = initialBugState();
    for (const e of history) {
      if (e.revision > event.revision && !sameCommand(e, event)) break;
      state = evolveBugWith(state, e);
    }
    if (state.kind !== 'reported' || state.deleted) return null;
    return { bug: state, facts: await this.factsOf(state) };
  }

  /** What conditions compare (simulate.ts's `bugFacts`), with the project and labels as their streams say now. */
  async factsOf(bug: ReportedBug): Promise<BugFacts> {
    const project = await this.project(bug.projectId);
    const names = new Map(
      await Promise.all(
        bug.labelIds.map(
          async (id) => [id, (await this.commands.load(streams.label(id), labelDecider)).state.name] as const,
        ),
      ),
    );
    return bugFacts(bug, project, (id) => names.get(id) ?? '');
  }

  private async project(id: string): Promise<ProjectState> {
    return (await this.commands.load(streams.project(id), projectDecider)).state;
  }

  /** The rule's actions on the bug, each once, then what they did as the rule's run. */
  private async run(id: string, rule: Rule, trigger: RecordedEvent, bug: ReportedBug, kind: string): Promise<void> {
    const depth = (trigger.metadata.rule?.depth ?? 0) + 1;
    const mark = { _id: id, name: rule.state.name, depth };
    const author = await this.author(rule, bug);
    const outcomes: Outcome[] = [];
    for (const [index, action] of rule.state.actions.entries()) {
      if (!author) {
        outcomes.push({ type: action.type, outcome: 'failed', message: 'The rule’s author can no longer act' });
        continue;
      }
      try {
        const changed = await this.perform(action, bug.id, author, {
          actor: author,
          correlationId: trigger.metadata.correlationId,
          idempotencyKey: null,
          causationEventId: deriveEventId(trigger.id, `automation:${id}`, index),
          mark,
          now: new Date().toISOString(),
        });
        outcomes.push({
          type: action.type,
          outcome: changed ? 'done' : 'unchanged',
          // Whom a notify tells: the notifications projection reads them off the run.
          ...(action.type === 'notify'
            ? {
                ...(action.userIds ? { userIds: [...action.userIds] } : {}),
                ...(action.role ? { role: action.role } : {}),
              }
            : {}),
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        outcomes.push({ type: action.type, outcome: 'failed', message: error.message });
      }
    }
    try {
      const handled = await this.commands.handle(
        streams.automation(id),
        automationDecider,
        {
          type: 'RecordAutomationRun',
          data: {
            automationId: id,
            name: rule.state.name,
            triggerEventId: trigger.id,
            trigger: kind as never,
            bugId: bug.id,
            at: trigger.metadata.occurredAt,
            outcomes,
          },
          metadata: { actor: null, now: new Date().toISOString() },
        },
        {
          actor: null,
          correlationId: trigger.metadata.correlationId,
          idempotencyKey: null,
          causationEventId: deriveEventId(trigger.id, `automation-run:${id}`, 0),
        },
        { anyRevision: true },
      );
      // A pause takes effect at once (the log says so again when read).
      this.rules.set(id, { ...rule, state: handled.state });
    } catch (error) {
      // Recorded before (a run repeated after a crash): the first record stands.
      if (!(error instanceof ConflictError)) throw error;
    }
  }

  /** The rule's author as an actor on this bug, or null when they can act no more. */
  private async author(rule: Rule, bug: ReportedBug): Promise<Actor | null> {
    if (!rule.authorId) return null;
    const { state } = await this.commands.load(streams.user(rule.authorId), userDecider);
    if (state.status !== 'registered' || state.deactivated) return null;
    const project = await this.project(bug.projectId);
    const member = rule.authorId in project.members;
    return {
      id: state.id,
      role: state.role,
      ...(project.access === 'team' && member ? { teamProjects: [project.id] } : {}),
      ...(project.private && !member ? { hiddenProjects: [project.id] } : {}),
    };
  }

  /** One action through the command handler; true when it appended a change. */
  private async perform(
    action: AutomationAction,
    bugId: string,
    actor: Actor,
    context: {
      actor: Actor;
      correlationId: string;
      idempotencyKey: null;
      causationEventId: string;
      mark: { _id: string; name: string; depth: number };
      now: string;
    },
  ): Promise<boolean> {
    const { mark, now, ...commandContext } = context;
    const options = { retryOnConflict: true, extraMetadata: () => ({ rule: mark }) };
    const metadata = { actor, now };
    const stream = streams.bug(bugId);
    // Each action's decider is the one its HTTP route uses; the command is that route's command.
    const handle = async (decider: Decider<any, any, any>, command: { type: string; data: unknown }) => {
      const handled = await this.commands.handle(stream, decider, { ...command, metadata }, commandContext, options);
      return handled.newEvents.length > 0 || handled.replayed;
    };
    const bug = (await this.commands.load(stream, bugDecider)).state;
    if (bug.kind !== 'reported') return false;
    switch (action.type) {
      case 'set_status': {
        const openBlockers = action.status === 'Closed' ? await this.openBlockers(bugId) : [];
        return handle(bugDecider, {
          type: 'ChangeBugStatus',
          data: { bugId, status: action.status, openBlockers },
        });
      }
      case 'assign': {
        const developers = await this.activeUsers(action.userIds, 'developer');
        const assigneeIds = [...new Set([...bug.assigneeIds, ...action.userIds])];
        return handle(bugDecider, {
          type: 'UpdateBug',
          data: { bugId, newItemIds: [], changes: { assigneeIds }, knownDeveloperIds: developers },
        });
      }
      case 'set_field': {
        if (action.field === 'priority' || action.field === 'severity' || action.field === 'module') {
          return handle(bugDecider, {
            type: 'UpdateBug',
            data: { bugId, newItemIds: [], changes: { [action.field]: action.value } },
          });
        }
        const project = await this.project(bug.projectId);
        const value = action.value;
        return handle(bugDecider, {
          type: 'UpdateBug',
          data: {
            bugId,
            newItemIds: [],
            changes: {},
            fields: {
              defs: project.fields,
              sent: { [action.field]: value },
              knownUserIds: typeof value === 'string' ? await this.activeUsers([value]) : [],
            },
          },
        });
      }
      case 'add_label':
      case 'remove_label': {
        const label = (await this.commands.load(streams.label(action.labelId), labelDecider)).state;
        const known = label.exists && !label.deleted ? [label.id] : [];
        const labelIds =
          action.type === 'add_label'
            ? [...new Set([...bug.labelIds, action.labelId])]
            : bug.labelIds.filter((l) => l !== action.labelId);
        return handle(bugStreamDecider(decideBugLabels), {
          type: 'SetBugLabels',
          data: { bugId, labelIds, knownLabelIds: known },
        });
      }
      case 'set_milestone': {
        const milestone = action.milestoneId
          ? (await this.commands.load(streams.milestone(action.milestoneId), milestoneDecider)).state
          : null;
        return handle(bugStreamDecider(decideBugMilestone), {
          type: 'SetBugMilestone',
          data: {
            bugId,
            milestoneId: action.milestoneId,
            milestone:
              milestone?.exists && !milestone.deleted ? { id: milestone.id, projectId: milestone.projectId } : null,
          },
        });
      }
      case 'comment':
        return handle(commentDecider, {
          type: 'AddComment',
          data: {
            bugId,
            commentId: deriveEventId(context.causationEventId, 'comment', 0),
            body: action.body,
            mentions: [],
            mentionedRoles: {},
          },
        });
      case 'notify':
        // Told by the rule's run: the notifications projection makes one for each person it names.
        return true;
      default:
        return false;
    }
  }

  /** Which of `ids` are active people (of `role`, when given): assignees, a user field's value. */
  private async activeUsers(ids: readonly string[], role?: 'developer'): Promise<string[]> {
    const states = await Promise.all(ids.map((id) => this.commands.load(streams.user(id), userDecider)));
    return states.flatMap(({ state }) =>
      state.status === 'registered' && !state.deactivated && (!role || state.role === role) ? [state.id] : [],
    );
  }

  /** The open bugs that block `bugId`, by key: the write side's relations, the blockers' streams. */
  private async openBlockers(bugId: string): Promise<{ id: string; key: string }[]> {
    const { rows } = await this.pool.query<{ from_id: string }>(
      "select from_id from write_api.bug_relations where to_id = $1 and kind = 'blocks'",
      [bugId],
    );
    const open: { id: string; key: string }[] = [];
    for (const { from_id } of rows) {
      const { state } = await this.commands.load(streams.bug(from_id), bugDecider);
      if (state.kind !== 'reported' || state.deleted || state.status === 'Closed') continue;
      const project = await this.project(state.projectId);
      open.push({ id: state.id, key: bugKey(project.key, state.projectNumber) ?? `#${state.number ?? '?'}` });
    }
    return open;
  }
}
