/** Stream names, one place: `user-{id}`, `bug-{id}`, `chat-{id}`, `chatmsgs-{id}`. */
export const streams = {
  user: (id: string) => `user-${id}`,
  bug: (id: string) => `bug-${id}`,
  chat: (id: string) => `chat-${id}`,
  chatMessages: (id: string) => `chatmsgs-${id}`,
  /** One user's saved views (api.md "Saved views"), keyed by the owner's id. */
  savedViews: (userId: string) => `views-${userId}`,
  /** What one user has read of their notifications (api.md "People"). */
  notifications: (userId: string) => `notifications-${userId}`,
  /** One admin invite code's life: minted, perhaps revoked (the code itself is never stored in it). */
  inviteCode: (id: string) => `invite-${id}`,
  /** Who may sign up (open or by invitation), set by admins: one stream for the whole server. */
  signupPolicy: () => 'settings-signup',
  /** One project's life: created, renamed, re-keyed, private or public, archived, its members (issue 35). */
  project: (id: string) => `project-${id}`,
  /** Which project a bug reported without one goes to: one stream for the whole server. */
  defaultProject: () => 'settings-default-project',
  /** One label's life: created, renamed or recoloured, deleted (issue 36). */
  label: (id: string) => `label-${id}`,
  /** One milestone of a project: planned, changed, closed, deleted (issue 36). */
  milestone: (id: string) => `milestone-${id}`,
  /** One automation rule's life: created, changed, paused after failures, deleted (issue 38). */
  automation: (id: string) => `automation-${id}`,
  /** One SLA policy's life: created, changed, deleted (issue 38). */
  sla: (id: string) => `sla-${id}`,
  /** One outgoing webhook's system events (switched off when it keeps failing). */
  webhook: (id: string) => `webhook-${id}`,
} as const;

/** The id part of a stream name (`bug-abc` → `abc`). */
export function streamEntityId(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(dash + 1);
}

export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(0, dash);
}
