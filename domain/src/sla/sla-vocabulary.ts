import type { BugStatus } from '../bugs/bug-vocabulary.js';

/**
 * SLA policies' words (api.md "Automation rules", issue 38): how long a bug may wait to be
 * answered (it leaves Open) and to be resolved (it is Closed), counted from its report. Free of
 * zod: the browser's door (vocabulary.ts) exports it.
 */
export const slaTargets = ['respond', 'resolve'] as const;
export type SlaTarget = (typeof slaTargets)[number];

export const slaLimits = {
  nameMax: 80,
  conditions: 20,
  /** The longest window: a year. */
  maxSeconds: 366 * 24 * 3600,
  /** A target is at risk in the last quarter of its window. */
  riskShare: 0.25,
} as const;

export const slaMessages = {
  notFound: 'SLA policy not found',
  cannotManage: 'Only admins, and leads within their project, can manage SLA policies',
  notYourProject: 'You can only write SLA policies for projects you lead',
  nameRequired: 'Policy name is required',
  nameTooLong: `Policy name must be at most ${slaLimits.nameMax} characters`,
  duration: (field: string) => `${field} must be a number and a unit (s, m, h or d): 30s, 4h, 3d`,
  durationTooLong: (field: string) => `${field} must be at most 366d`,
  targetRequired: 'Give respondWithin, resolveWithin or both',
  tooManyConditions: `A policy has at most ${slaLimits.conditions} conditions`,
  windowRange: 'from must be before to',
  unknownFilter: 'sla must be at_risk or breached',
} as const;

const unitSeconds = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** `30s`, `4h`, `3d` → seconds; null for anything else (no unit, zero, a fraction, another unit). */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d{1,7})\s*([smhd])\s*$/.exec(text);
  if (!match) return null;
  const seconds = Number(match[1]) * unitSeconds[match[2] as keyof typeof unitSeconds];
  return seconds > 0 ? seconds : null;
}

/** Seconds as the shortest exact duration (`14400` → `4h`). */
export function formatDuration(seconds: number): string {
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/** What a bug's answer says of its SLA: null when no policy holds for it. */
export type BugSla = {
  policy: { _id: string; name: string };
  /** When it must leave Open (null: the policy sets no respond target). */
  respondBy: string | null;
  /** When it must be Closed (null: no resolve target). */
  resolveBy: string | null;
  /** When it first left Open / was first Closed (null: not yet). */
  respondedAt: string | null;
  resolvedAt: string | null;
  /** The targets missed: met late, or not met and past due. */
  breached: SlaTarget[];
  /** A target not met yet is in the last quarter of its window. */
  atRisk: boolean;
};

/** The SLA filters lists take (`sla=at_risk|breached`). */
export const slaFilters = ['at_risk', 'breached'] as const;
export type SlaFilter = (typeof slaFilters)[number];

/** One target of a bug, as the clock reads it: met (on time or late), pending, or missed while pending. */
export type TargetClock = Readonly<{ due: string | null; doneAt: string | null }>;

const missed = ({ due, doneAt }: TargetClock, now: number) =>
  due !== null && (doneAt !== null ? Date.parse(doneAt) > Date.parse(due) : Date.parse(due) <= now);

/**
 * The SLA as of `now`: which targets are missed, and whether one not met yet is at risk (in the
 * last quarter of its window, which runs from the report, `reportedAt`, to its due time).
 */
export function slaAt(sla: BugSla, reportedAt: string, now: Date): BugSla {
  const t = now.getTime();
  const clocks: TargetClock[] = [
    { due: sla.respondBy, doneAt: sla.respondedAt },
    { due: sla.resolveBy, doneAt: sla.resolvedAt },
  ];
  const breached = slaTargets.filter((_, i) => missed(clocks[i]!, t));
  const atRisk =
    breached.length === 0 &&
    clocks.some(({ due, doneAt }) => {
      if (due === null || doneAt !== null) return false;
      const window = Date.parse(due) - Date.parse(reportedAt);
      return Date.parse(due) - t <= window * slaLimits.riskShare;
    });
  return breached.length === sla.breached.length &&
    atRisk === sla.atRisk &&
    breached.every((b, i) => sla.breached[i] === b)
    ? sla
    : { ...sla, breached, atRisk };
}

/** Whether a bug's status counts as responded to / resolved (api.md: respond = leaves Open). */
export const respondedStatus = (status: BugStatus) => status !== 'Open';
export const resolvedStatus = (status: BugStatus) => status === 'Closed';
