/**
 * Topics as the projector stores them (ADR 004): `kind:id|aud` or a bare `kind`,
 * where `aud` is a comma list of user ids, or `*` for everybody.
 */
export type Topic = Readonly<{
  /** `bug`, `bugs`, `user`, `users`, `chat`, ... */
  kind: string;
  /** The object id, or null for a collection topic such as `bugs`. */
  id: string | null;
  /** Who may see the object before or after the change; null when the topic carries none. */
  audience: readonly string[] | null;
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
  if (bar < 0) return { kind, id, audience: null, isPublic: false, name };
  const audience = stored
    .slice(bar + 1)
    .split(',')
    .filter((entry) => entry.length > 0);
  return { kind, id, audience, isPublic: audience.includes('*'), name };
}

/** True when the user is named in the topic's audience, or the audience is everybody. */
export function isInAudience(userId: string, topic: Topic): boolean {
  return topic.isPublic || (topic.audience?.includes(userId) ?? false);
}
