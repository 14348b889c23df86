import type { BugStatus } from '../../lib/types';

/** The answers of GET /api/metrics, /api/metrics/cycle-times and /api/metrics/flow (durations in seconds). */

export const flowGroups = ['severity', 'priority', 'module', 'assignee', 'project'] as const;
export type FlowGroup = (typeof flowGroups)[number];

export type Percentiles = { p50: number | null; p85: number | null; p95: number | null; count: number };
export type TimeInStatus = Record<BugStatus, number>;

type Window = { asOf: string; from: string | null; to: string | null };

export type FlowMetrics = Window & {
  groupBy: FlowGroup | null;
  cycleTime: Percentiles;
  timeInStatus: TimeInStatus;
  reopened: number;
  weekly: { week: string; opened: number; closed: number }[];
  openAge: Percentiles;
  groups?: { key: string | null; cycleTime: Percentiles; count: number; timeInStatus: TimeInStatus }[];
  /** With one project: mean seconds per bug in each of its workflow states, in board order (issue 37). */
  timeInState?: StateTime[] | null;
};

export type StateTime = { _id: string; name: string; category: BugStatus | null; seconds: number };

export type CycleTimePoint = { bugId: string; title: string; closedAt: string; seconds: number; key: string | null };
export type CycleTimes = Window & { total: number; points: CycleTimePoint[] };

export type FlowDay = { date: string } & Record<BugStatus, number>;
export type CumulativeFlow = Window & { granularity: 'day' | 'week'; points: FlowDay[] };
