import type { BugDto, EmailPreference, Role, UserDto } from '@bugtrail/domain/vocabulary';

/**
 * The answers as the web reads them. The words (statuses, priorities, roles) and the
 * bug and user shapes are the domain's, through its zod-free browser door; only the
 * read-api's list and dashboard envelopes are declared here.
 */
export type { BugStatus, Priority, Role, Severity } from '@bugtrail/domain/vocabulary';

/**
 * A user as answers carry it: the fields beyond id and name depend on the answer.
 * `deactivated`: signed out and unable to sign in until an admin reactivates them
 * (api.md "People"); false or absent for everyone else.
 */
export type UserRef = Pick<UserDto, '_id' | 'name'> &
  Partial<Omit<UserDto, '_id' | 'name' | 'deactivated'>> & { deactivated?: boolean };

/** How a person wants notification emails (api.md "People", Email): each at once, a daily digest, or none. */
export type { EmailPreference };

export type UserPreferences = { email: EmailPreference };

/** `preferences`: on the signed-in user's own profile (GET /api/auth/profile); "immediate" when absent. */
export type User = UserRef & { email: string; role: Role; preferences?: UserPreferences };

/** A row of the admin's team list; `createdAt` (when they signed up) when the server sends it. */
export type TeamMember = User & {
  pendingTasks: number;
  inProgressTasks: number;
  completedTasks: number;
  createdAt?: string;
};

export type Bug = BugDto;

/** A label as a bug carries it (api.md "Labels"): `color` is `#rrggbb`. */
export type LabelRef = BugDto['labels'][number];
/** A label as `GET /api/labels` answers it. */
export type Label = LabelRef & { description: string };

export type ChecklistItem = BugDto['checklist'][number];

export type StatusSummary = {
  all: number;
  open: number;
  inProgress: number;
  closed: number;
  openBugs?: number;
  pendingBugs?: number;
  inProgressBugs?: number;
  closedBugs?: number;
  resolvedBugs?: number;
};

export type BugPage = { bugs: Bug[]; statusSummary: StatusSummary; nextCursor?: string | null; total?: number };

export type LevelCounts = { High: number; Medium: number; Low: number };

export type Dashboard = {
  statistics: { totalBugs: number; openBugs: number; inProgressBugs: number; closedBugs: number };
  stats?: { totalBugs: number; openBugs: number; inProgressBugs: number; closedBugs: number };
  charts: {
    bugDistribution: { Open: number; InProgress?: number; 'In Progress'?: number; Closed: number; All?: number };
    bugSeverityLevels: LevelCounts;
    bugPriorityLevels: LevelCounts;
  };
  recentBugs: Bug[];
  /** Admin dashboard only: how often the report form's triage suggestions were shown and taken. */
  suggestions?: DashboardSuggestionUsage;
};

export type DashboardSuggestionUsage = {
  reports: number;
  shown: { duplicates: number; severity: number; priority: number; assignees: number };
  taken: { severity: number; priority: number; assignees: number };
};

export type AuthAnswer = {
  token: string;
  role: Role;
  user: User;
  _id: string;
  name: string;
  email: string;
  profileImageURL: string | null;
};
