import type { AutomationRunsTable, AutomationsTable } from './automations/automations.tables.js';
import type {
  BugCountersTable,
  BugFieldSortTable,
  BugKeysTable,
  BugLinksTable,
  BugProjectsTable,
  BugsTable,
  BugUsersTable,
  LabelsTable,
  SlaPoliciesTable,
} from './bugs/bugs.tables.js';
import type { ChatMembersTable, ChatMessagesTable, ChatsTable } from './chats/chats.tables.js';
import type { BugCommentsTable } from './comments/comments.tables.js';
import type { BugChangesTable, BugIntervalsTable, FlowBugsTable } from './flow/flow.tables.js';
import type { InviteCodesTable, SignupPolicyTable } from './invites/invites.tables.js';
import type { MilestonesTable } from './milestones/milestones.tables.js';
import type {
  NotificationBlocksTable,
  NotificationBugsTable,
  NotificationChatsTable,
  NotificationPrefsTable,
  NotificationsTable,
} from './notifications/notifications.tables.js';
import type {
  DefaultProjectTable,
  ProjectKeysTable,
  ProjectMembersTable,
  ProjectsTable,
} from './projects/projects.tables.js';
import type { SuggestionUsageTable } from './triage/triage.tables.js';
import type { UsersTable } from './users/users.tables.js';
import type { SavedViewsTable } from './views/views.tables.js';
import type { WorklogTable } from './worklog/worklog.tables.js';

/**
 * The read-model tables, composed from each feature's own (`*.tables.ts`). Keys are
 * unqualified: queries pick the schema with `withSchema` (`rm` live, a side schema
 * while a rebuild writes), so one typed `Kysely<ReadModelDb>` serves both.
 */
export interface ReadModelDb {
  users: UsersTable;
  automations: AutomationsTable;
  automation_runs: AutomationRunsTable;
  bugs: BugsTable;
  bug_counters: BugCountersTable;
  bug_field_sort: BugFieldSortTable;
  sla_policies: SlaPoliciesTable;
  bug_users: BugUsersTable;
  bug_projects: BugProjectsTable;
  bug_keys: BugKeysTable;
  labels: LabelsTable;
  bug_links: BugLinksTable;
  milestones: MilestonesTable;
  worklog: WorklogTable;
  chats: ChatsTable;
  chat_members: ChatMembersTable;
  chat_messages: ChatMessagesTable;
  flow_bugs: FlowBugsTable;
  bug_intervals: BugIntervalsTable;
  bug_changes: BugChangesTable;
  saved_views: SavedViewsTable;
  invite_codes: InviteCodesTable;
  signup_policy: SignupPolicyTable;
  bug_comments: BugCommentsTable;
  notification_bugs: NotificationBugsTable;
  notification_blocks: NotificationBlocksTable;
  notification_chats: NotificationChatsTable;
  notification_prefs: NotificationPrefsTable;
  notifications: NotificationsTable;
  suggestion_usage: SuggestionUsageTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  project_keys: ProjectKeysTable;
  default_project: DefaultProjectTable;
}
