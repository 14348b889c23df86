/**
 * Topics as the projector stores them (ADR 004): `kind:id|aud`, `kind:id|aud|projects` or a
 * bare `kind`, where `aud` is a comma list of user ids, or `*` for everybody, and `projects` the
 * projects the object was in before or after the change (issue 35).
 */
export type Topic = Readonly<{
  /** `bug`, `bugs`, `user`, `users`, `chat`, ... */
  kind: string;
  /** The object id, or null for a collection topic such as `bugs`. */
  id: string | null;
  /** Who may see the object before or after the change; null when the topic carries none. */
  audience: readonly string[] | null;
  /** The projects the object was in before or after the change; null when the topic names none. */
  projects: readonly string[] | null;
  /** The audience is `*`. */
  isPublic: boolean;
  /** What subscribers receive: the topic without its audience. */
  name: string;
}>;

export function parseTopic(stored: string): Topic {
  const bar = stored.indexOf('|');
  const name = bar < 0 ? stored : stored.slice(0, bar);
  const colon = name.indexOf(':');
  const kind = colon < 0 ? name : name.slice(0, colon);
  const id = colon < 0 ? null : name.slice(colon + 1);
  if (bar < 0) return { kind, id, audience: null, projects: null, isPublic: false, name };
  const second = stored.indexOf('|', bar + 1);
  const audience = list(stored.slice(bar + 1, second < 0 ? undefined : second));
  const projects = second < 0 ? null : list(stored.slice(second + 1));
  return { kind, id, audience, projects, isPublic: audience.includes('*'), name };
}

function list(text: string): string[] {
  return text.split(',').filter((entry) => entry.length > 0);
}

/** True when the user is named in the topic's audience, or the audience is everybody. */
export function isInAudience(userId: string, topic: Topic): boolean {
  return topic.isPublic || (topic.audience?.includes(userId) ?? false);
}

/**
 * False when every project the topic names is hidden from the subscriber (private, and they
 * are no member): for them the object does not exist. A topic that names none is not about a project.
 */
export function isInVisibleProject(hiddenProjects: readonly string[] | undefined, topic: Topic): boolean {
  if (!topic.projects || topic.projects.length === 0 || !hiddenProjects || hiddenProjects.length === 0) return true;
  return topic.projects.some((projectId) => !hiddenProjects.includes(projectId));
}
