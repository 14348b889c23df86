import type { ProjectDto } from '@bugtrail/domain/vocabulary';
import { keepPreviousData, type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from './api';
import { managesProject } from './projects';
import { queryKeys } from './query-keys';
import type { Bug, BugPage } from './types';

/**
 * Planning (api.md "Relations and sub-bugs", "Milestones"): a bug's relations to other bugs, its
 * parent and sub-bugs, the milestone it is planned into, and the milestones themselves.
 */

export type Relation = Bug['relations'][number];
export type ShownRelationType = Relation['type'];
/** The types one may say from a bug's side; `duplicated_by` is only ever the other side's. */
export type RelationType = Exclude<ShownRelationType, 'duplicated_by'>;
export type LinkedBug = Relation['bug'];

/** Each relation type in words, in the order the page lists them. */
export const relationWords: Readonly<Record<ShownRelationType, string>> = {
  blocked_by: 'Blocked by',
  blocks: 'Blocks',
  duplicate_of: 'Duplicate of',
  duplicated_by: 'Duplicated by',
  relates_to: 'Relates to',
};
export const relationOrder = Object.keys(relationWords) as ShownRelationType[];
export const relationTypes: readonly RelationType[] = ['blocks', 'blocked_by', 'duplicate_of', 'relates_to'];

/** The bugs that block this one and are not Closed yet (closing it is refused until they are). */
export function openBlockers(bug: Pick<Bug, 'relations'>): LinkedBug[] {
  return (bug.relations ?? []).filter((r) => r.type === 'blocked_by' && r.bug.status !== 'Closed').map((r) => r.bug);
}

/** The original this bug duplicates, if it is one. */
export function originalOf(bug: Pick<Bug, 'relations'>): LinkedBug | undefined {
  return (bug.relations ?? []).find((r) => r.type === 'duplicate_of')?.bug;
}

/** A linked bug's short name: its key, else its number. */
export const linkedName = (bug: { key: string | null; number?: number | null; _id: string }) =>
  bug.key ?? (bug.number ? `#${bug.number}` : bug._id);

/**
 * Who may change a bug's relations, parent and milestone: admins, its reporting tester, its
 * assigned developers. The server decides; this only hides the controls.
 */
export function canPlanBug(user: { _id: string; role: string } | undefined, bug: Bug): boolean {
  if (!user || bug.archived) return false;
  if (user.role === 'admin') return true;
  if (user.role === 'tester') return bug.createdBy?._id === user._id;
  if (user.role === 'developer') return bug.assignedTo.some((person) => person._id === user._id);
  return false;
}

/** Whether `user` may plan the project's milestones: admins, and the project's leads. */
export const canManageMilestones = (user: { _id: string; role: string }, project: ProjectDto) =>
  managesProject(user, project);

// ---- Reads -------------------------------------------------------------------------------

export type Milestone = {
  _id: string;
  projectId: string;
  name: string;
  description: string;
  /** YYYY-MM-DD */
  startDate: string | null;
  /** YYYY-MM-DD */
  dueDate: string | null;
  closedAt: string | null;
  progress: { total: number; closed: number };
  /** Hours: its bugs' estimates, and the time logged on them (issue 37). */
  estimate: number;
  spent: number;
  spentMinutes: number;
};

export type BurnupDay = { date: string; scope: number; closed: number };

export const milestonesQuery = (projectIdOrKey: string) =>
  queryOptions({
    queryKey: queryKeys.bugs.milestones(projectIdOrKey),
    queryFn: ({ signal }) =>
      api<{ milestones: Milestone[] }>(`/api/projects/${encodeURIComponent(projectIdOrKey)}/milestones`, { signal }),
  });

export const milestoneQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.bugs.milestone(id),
    queryFn: ({ signal }) => api<Milestone>(`/api/milestones/${encodeURIComponent(id)}`, { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });

/** The burn-up as of the end of `asOf` (YYYY-MM-DD; empty: now). */
export const burnupQuery = (id: string, asOf: string) =>
  queryOptions({
    queryKey: queryKeys.bugs.burnup(id, asOf),
    queryFn: ({ signal }) => {
      const query = asOf ? `?asOf=${encodeURIComponent(`${asOf}T23:59:59.999Z`)}` : '';
      return api<{ days: BurnupDay[] }>(`/api/milestones/${encodeURIComponent(id)}/burnup${query}`, { signal });
    },
    placeholderData: keepPreviousData,
  });

/** Enough for a milestone's page or a parent's sub-bugs (the lists answer at most 100 a page). */
const PLANNING_LIMIT = 100;

export const milestoneBugsQuery = (id: string) => {
  const params = { milestone: id, limit: String(PLANNING_LIMIT), sort: 'number' };
  return queryOptions({
    queryKey: queryKeys.bugs.list('/api/bugs', params),
    queryFn: ({ signal }) => api<BugPage>(`/api/bugs?${new URLSearchParams(params)}`, { signal }),
  });
};

/** A parent's sub-bugs (those the reader may see), oldest first. */
export const subBugsQuery = (parent: Pick<Bug, '_id' | 'projectId'>) => {
  const params = { parent: parent._id, limit: String(PLANNING_LIMIT), sort: 'number' };
  return queryOptions({
    queryKey: queryKeys.bugs.list('/api/bugs', params),
    queryFn: ({ signal }) => api<BugPage>(`/api/bugs?${new URLSearchParams(params)}`, { signal }),
    select: (page) => page.bugs,
  });
};

const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9]+-\d+$/;

/** The bug picker's answers: the bug with that key (when the text is one), then the search's. */
export const bugPickQuery = (text: string) =>
  queryOptions({
    queryKey: queryKeys.bugs.search(`pick:${text}`),
    enabled: text.trim().length > 0,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const q = text.trim();
      const byKey = KEY_PATTERN.test(q)
        ? api<Bug>(`/api/bugs/by-key/${encodeURIComponent(q.toUpperCase())}`, { signal }).catch(() => null)
        : Promise.resolve(null);
      const search = api<BugPage>(`/api/bugs?${new URLSearchParams({ q, limit: '10' })}`, { signal })
        .then((page) => page.bugs)
        .catch(() => [] as Bug[]);
      const [exact, found] = await Promise.all([byKey, search]);
      return exact ? [exact, ...found.filter((bug) => bug._id !== exact._id)] : found;
    },
  });

// ---- Commands ----------------------------------------------------------------------------

type BugAnswer = { message?: string; bug?: Bug };

/** A command on a bug's planning answers the bug; the other bugs it names show the change too. */
function useBugPlanningMutation<Input>(bugId: string, send: (input: Input) => Promise<BugAnswer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      if (answer?.bug) client.setQueryData(queryKeys.bug.detail(bugId), answer.bug);
    },
    onSettled: (answer) => refreshPlanning(client, bugId, answer?.bug),
  });
}

function refreshPlanning(client: QueryClient, bugId: string, bug: Bug | undefined) {
  void client.invalidateQueries({ queryKey: queryKeys.bug.detail(bugId) });
  // Both sides of a relation, the old and the new parent: refetched when next shown.
  void client.invalidateQueries({ queryKey: ['bug'], refetchType: 'none' });
  void client.invalidateQueries({ queryKey: queryKeys.bugs.all });
  if (bug) void client.invalidateQueries({ queryKey: queryKeys.dashboard.all });
}

const bugAt = (id: string) => `/api/bugs/${encodeURIComponent(id)}`;

export const useAddRelation = (bugId: string) =>
  useBugPlanningMutation(bugId, ({ type, otherId }: { type: RelationType; otherId: string }) =>
    api<BugAnswer>(`${bugAt(bugId)}/relations`, { method: 'POST', body: { type, bugId: otherId }, offline: 'fail' }),
  );

export const useRemoveRelation = (bugId: string) =>
  useBugPlanningMutation(bugId, ({ type, otherId }: { type: ShownRelationType; otherId: string }) =>
    api<BugAnswer>(`${bugAt(bugId)}/relations/${encodeURIComponent(otherId)}?type=${encodeURIComponent(type)}`, {
      method: 'DELETE',
      offline: 'fail',
    }),
  );

export const useSetParent = (bugId: string) =>
  useBugPlanningMutation(bugId, (parentId: string | null) =>
    api<BugAnswer>(`${bugAt(bugId)}/parent`, { method: 'PUT', body: { parentId }, offline: 'fail' }),
  );

export const useSetMilestone = (bugId: string) =>
  useBugPlanningMutation(bugId, (milestoneId: string | null) =>
    api<BugAnswer>(`${bugAt(bugId)}/milestone`, { method: 'PUT', body: { milestoneId }, offline: 'fail' }),
  );

export type MilestoneDraft = { name: string; description: string; startDate: string | null; dueDate: string | null };

function useMilestoneMutation<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.bugs.allMilestones }),
  });
}

export const useCreateMilestone = (projectId: string) =>
  useMilestoneMutation((draft: MilestoneDraft) =>
    api<Milestone>(`/api/projects/${encodeURIComponent(projectId)}/milestones`, {
      method: 'POST',
      body: draft,
      offline: 'fail',
    }),
  );

export const useUpdateMilestone = (id: string) =>
  useMilestoneMutation((changes: Partial<MilestoneDraft> & { closed?: boolean }) =>
    api<Milestone>(`/api/milestones/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes, offline: 'fail' }),
  );

export const useDeleteMilestone = (id: string) =>
  useMilestoneMutation(() =>
    api<{ message: string }>(`/api/milestones/${encodeURIComponent(id)}`, { method: 'DELETE', offline: 'fail' }),
  );

// ---- Release notes -----------------------------------------------------------------------

/**
 * A milestone's release notes (api.md "Milestones"): its closed bugs in Markdown, under a heading
 * per label (a bug with two labels is under both), those without one under "Other", last.
 */
export function releaseNotes(name: string, bugs: readonly Bug[]): string {
  const closed = bugs.filter((bug) => bug.status === 'Closed');
  if (closed.length === 0) return `## ${name}\n\nNo bugs closed yet.\n`;
  const groups = new Map<string, Bug[]>();
  const other: Bug[] = [];
  for (const bug of closed) {
    if ((bug.labels ?? []).length === 0) other.push(bug);
    for (const label of bug.labels ?? []) groups.set(label.name, [...(groups.get(label.name) ?? []), bug]);
  }
  const sections = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  if (other.length > 0) sections.push(['Other', other]);
  const line = (bug: Bug) => `- ${bug.key ?? `#${bug.number ?? ''}`} ${bug.title}`;
  return `## ${name}\n\n${sections.map(([label, list]) => `### ${label}\n\n${list.map(line).join('\n')}\n`).join('\n')}`;
}
