/**
 * Every TanStack Query key of the app, one factory per feature (ADR 004). A key starts with
 * the read model it reads, because the live stream refreshes by prefix (live/topic-keys.ts):
 * `bug.detail(id)` also covers the bug's history and comments, `bugs.all` every list,
 * `dashboard.all` every role's dashboard and the Flow page, `users.all` the team and the
 * pickers. A new screen adds its key here, under the prefix its topic refreshes.
 */
export const queryKeys = {
  bug: {
    detail: (id: string) => ['bug', id] as const,
    history: (id: string) => ['bug', id, 'history'] as const,
    historyAt: (id: string, at: string) => ['bug', id, 'history', 'at', at] as const,
    comparison: (id: string, from: string, to: string) => ['bug', id, 'history', 'compare', from, to] as const,
    comments: (id: string) => ['bug', id, 'comments'] as const,
  },
  bugs: {
    all: ['bugs'] as const,
    list: (endpoint: string, params: Record<string, string>) => ['bugs', 'list', endpoint, params] as const,
    search: (q: string) => ['bugs', 'search', q] as const,
    allViewable: ['bugs', 'all-viewable'] as const,
    /** A project's board (api.md "Board"): under `bugs` so every bug change refreshes it. */
    board: (projectKey: string, params: Record<string, string>) => ['bugs', 'board', projectKey, params] as const,
    boards: ['bugs', 'board'] as const,
    /**
     * Milestones (api.md "Milestones"): a project's, one, and its burn-up. Their progress is
     * their bugs', so they sit under `bugs`: every bug change refreshes them (no topic of their own).
     */
    milestones: (projectIdOrKey: string) => ['bugs', 'milestones', 'project', projectIdOrKey] as const,
    milestone: (id: string) => ['bugs', 'milestones', id] as const,
    burnup: (id: string, asOf: string) => ['bugs', 'milestones', id, 'burnup', asOf] as const,
    allMilestones: ['bugs', 'milestones'] as const,
  },
  dashboard: {
    all: ['dashboard'] as const,
    role: (role: string) => ['dashboard', role] as const,
    flow: (read: 'metrics' | 'cycle-times' | 'cumulative', params: unknown) =>
      ['dashboard', 'flow', read, params] as const,
    auditActivity: ['dashboard', 'audit-activity'] as const,
  },
  users: {
    all: ['users'] as const,
    developers: ['users', 'developers'] as const,
    inviteCodes: ['users', 'invite-codes'] as const,
    chatDirectory: ['users', 'chat-directory'] as const,
  },
  /** The signed-in caller's own account. */
  profile: {
    self: ['profile'] as const,
    apiTokens: ['api-tokens'] as const,
  },
  /** What the sign-in pages ask before anyone signs in. */
  site: {
    mailConfigured: ['mail-configured'] as const,
    signupPolicy: ['signup-policy'] as const,
    sso: ['sso'] as const,
  },
  chats: {
    list: ['chats'] as const,
    detail: (id: string) => ['chat', id] as const,
    messages: (id: string) => ['chat', id, 'messages'] as const,
    aiModels: ['chats', 'ai-models'] as const,
  },
  notifications: { all: ['notifications'] as const },
  views: { all: ['views'] as const },
  /** Projects: the list, and each by the id or key the page was opened with. */
  projects: {
    all: ['projects'] as const,
    detail: (idOrKey: string) => ['projects', idOrKey] as const,
    fields: (idOrKey: string) => ['projects', idOrKey, 'fields'] as const,
  },
  webhooks: {
    all: ['webhooks'] as const,
    deliveries: (id: string) => ['webhooks', id, 'deliveries'] as const,
  },
  /** Timesheets and one bug's worklog (issue 37). */
  worklog: {
    all: ['worklog'] as const,
    sheet: (params: Record<string, string>) => ['worklog', params] as const,
  },
  /** Labels (api.md "Labels"): the list admins manage and everyone picks from. */
  labels: { all: ['labels'] as const },
  /** Automation rules and their run logs (api.md "Automation rules"). */
  sla: {
    all: ['sla'] as const,
    compliance: (window: string) => ['sla', 'compliance', window] as const,
  },
  automations: {
    all: ['automations'] as const,
    runs: (id: string) => ['automations', id, 'runs'] as const,
  },
  audit: { verify: ['audit', 'verify'] as const },
  triage: {
    suggestions: (title: string, description: string) => ['triage-suggestions', title, description] as const,
  },
};
