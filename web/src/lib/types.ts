export type Role = 'admin' | 'tester' | 'developer';
export type BugStatus = 'Open' | 'In Progress' | 'Closed';
export type Priority = 'Low' | 'Medium' | 'High';
export type Severity = 'Minor' | 'Major' | 'Critical';

export type UserRef = {
  _id: string;
  name: string;
  email?: string;
  role?: Role;
  profileImageURL?: string | null;
  profileImageUrl?: string | null;
};

export type User = UserRef & { email: string; role: Role };

export type TeamMember = User & { pendingTasks: number; inProgressTasks: number; completedTasks: number };

export type ChecklistItem = {
  _id?: string;
  text: string;
  completed: boolean;
  completedBy?: { _id: string; name: string } | null;
  completedAt?: string | null;
};

export type Bug = {
  _id: string;
  title: string;
  description: string;
  priority: Priority;
  severity: Severity;
  status: BugStatus;
  module: string | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: { _id: string; name: string } | string | null;
  assignedTo: UserRef[];
  checklist: ChecklistItem[];
  attachments: string[];
  version: number;
};

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

export type BugPage = { bugs: Bug[]; statusSummary: StatusSummary; nextCursor?: string | null };

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
