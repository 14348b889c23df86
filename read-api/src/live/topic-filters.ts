import { type Actor, bugPermissions } from '@bugtrail/domain';
import { isInAudience, isInVisibleProject, type Topic } from './topics.js';

/**
 * Decides whether one subscriber may hear of one topic. Pure (ADR 004): everything it
 * needs is in the actor and the topic's audience, so fan-out never queries.
 */
export type TopicFilter = (actor: Actor, topic: Topic) => boolean;

/**
 * The one place features say who hears their topics. A kind nobody registered is
 * delivered to nobody: a new topic must be opened deliberately, never leak by default.
 */
export class TopicFilterRegistry {
  private readonly filters = new Map<string, TopicFilter>();
  private readonly rightsChanges = new Map<string, (topic: Topic) => boolean>();

  /** Registers (or replaces) the filter of a topic kind. */
  register(kind: string, filter: TopicFilter): void {
    this.filters.set(kind, filter);
  }

  canSee(actor: Actor, topic: Topic): boolean {
    const filter = this.filters.get(topic.kind);
    return filter ? filter(actor, topic) : false;
  }

  /**
   * Declares that a topic of this kind may change who hears what (a project's members or
   * privacy): the live hub asks every stream's rights again when one passes.
   */
  registerRightsChange(kind: string, changes: (topic: Topic) => boolean): void {
    this.rightsChanges.set(kind, changes);
  }

  changesRights(topic: Topic): boolean {
    return this.rightsChanges.get(topic.kind)?.(topic) ?? false;
  }

  has(kind: string): boolean {
    return this.filters.has(kind);
  }
}

/** api.md "who sees what", for the bug and user topics. */
export function registerDefaultTopicFilters(registry: TopicFilterRegistry): void {
  // The bugs' visibility rule (domain bugs/permissions.ts): those who see every bug, and the
  // bug's audience before or after the change (removals arrive too).
  // A private project's bugs do not exist for a non-member (issue 35): not even their topics.
  registry.register(
    'bug',
    (actor, topic) =>
      isInVisibleProject(actor.hiddenProjects, topic) &&
      bugPermissions.hearsOf(actor, { ids: topic.audience, isPublic: topic.isPublic, projects: topic.projects }),
  );
  // A tester's all-viewable list shows every row; a developer's lists never show foreign bugs.
  registry.register(
    'bugs',
    (actor, topic) =>
      isInVisibleProject(actor.hiddenProjects, topic) && bugPermissions.hearsOfEveryBug(actor, topic.projects),
  );
  registry.register('user', () => true);
  registry.register('users', () => true);
  // The admin invite codes list (api.md "People"): admins only.
  registry.register('invite-codes', (actor) => actor.role === 'admin');
  // Participants only, admins included (ADR 004); the chat feature may refine it.
  registry.register('chat', (actor, topic) => isInAudience(actor.id, topic));
}

/** The registry read-api's live stream uses; features register their kinds here. */
export const topicFilters = new TopicFilterRegistry();
registerDefaultTopicFilters(topicFilters);

export function registerTopicFilter(kind: string, filter: TopicFilter): void {
  topicFilters.register(kind, filter);
}

export function registerRightsChange(kind: string, changes: (topic: Topic) => boolean): void {
  topicFilters.registerRightsChange(kind, changes);
}
