/**
 * The bugs' live topics (ADR 004, issue 35): `bug:{id}|{audience}|{projects}` and
 * `bugs|*|{projects}`. The audience is who may see the bug before or after the change; the
 * projects are those it was in before and after (a move names both), so read-api leaves the
 * topic out for a subscriber who sees none of them (a private project they are no member of).
 */
export function bugTopic(bugId: string, audience: Iterable<string>, projects: Iterable<string>): string {
  return `bug:${bugId}|${[...new Set(audience)].join(',')}|${[...new Set(projects)].join(',')}`;
}

/** Some bug row of these projects changed (any list, any dashboard). */
export function bugsTopic(projects: Iterable<string>): string {
  return `bugs|*|${[...new Set(projects)].sort().join(',')}`;
}
