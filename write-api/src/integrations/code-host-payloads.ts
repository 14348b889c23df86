import { type CodeHost, type PullRequestState, pullRequestStates } from '@bugtrail/domain';
import { z } from 'zod';

/**
 * GitHub's and GitLab's webhook payloads, reduced to what links code to bugs: the
 * commits a push brought (and whether it reached the default branch) and a pull or
 * merge request as it is now. Only the fields read are checked; the rest of a payload
 * is the host's business.
 */

export type PushedCommit = Readonly<{
  sha: string;
  message: string;
  url: string;
  authorName: string;
  authorEmail: string | null;
  at: string;
}>;

export type CodeNews =
  | Readonly<{ kind: 'push'; repository: string; toDefaultBranch: boolean; commits: readonly PushedCommit[] }>
  | Readonly<{
      kind: 'request';
      repository: string;
      number: number;
      title: string;
      body: string;
      url: string;
      state: PullRequestState;
      authorEmail: string | null;
    }>;

const text = z
  .string()
  .nullish()
  .transform((s) => s ?? '');
const when = z
  .string()
  .nullish()
  .transform((s) => {
    const t = s ? Date.parse(s) : Number.NaN;
    return Number.isFinite(t) ? new Date(t).toISOString() : null;
  });
const email = z
  .string()
  .nullish()
  .transform((s) => (s?.includes('@') ? s.trim().toLowerCase() : null));
const commit = z.object({
  id: z.string().regex(/^[0-9a-f]{7,64}$/i),
  message: text,
  timestamp: when,
  url: text,
  author: z.object({ name: text, email }).nullish(),
});

const githubPush = z.object({
  ref: z.string(),
  repository: z.object({
    full_name: z.string().min(1),
    default_branch: z.string().nullish(),
    master_branch: z.string().nullish(),
  }),
  commits: z.array(commit).nullish(),
  head_commit: commit.nullish(),
});

const githubPullRequest = z.object({
  pull_request: z.object({
    number: z.number().int().positive(),
    title: text,
    body: text,
    html_url: text,
    state: z.string(),
    merged: z.boolean().nullish(),
    merged_at: z.string().nullish(),
  }),
  repository: z.object({ full_name: z.string().min(1) }),
});

const gitlabPush = z.object({
  ref: z.string(),
  project: z.object({ path_with_namespace: z.string().min(1), default_branch: z.string().nullish() }),
  commits: z.array(commit).nullish(),
});

const gitlabMergeRequest = z.object({
  object_attributes: z.object({
    iid: z.number().int().positive(),
    title: text,
    description: text,
    url: text,
    state: z.string(),
  }),
  project: z.object({ path_with_namespace: z.string().min(1) }),
  user: z.object({ email }).nullish(),
});

type Commit = z.infer<typeof commit>;
const toPushed = (c: Commit, fallbackTime: string): PushedCommit => ({
  sha: c.id.toLowerCase(),
  message: c.message.slice(0, 2000),
  url: c.url.slice(0, 2048),
  authorName: (c.author?.name ?? '').slice(0, 200),
  authorEmail: c.author?.email ?? null,
  at: c.timestamp ?? fallbackTime,
});

/** A push's commits, each once (GitHub repeats the newest as `head_commit`). */
function pushedCommits(commits: readonly Commit[], head: Commit | null | undefined, now: string): PushedCommit[] {
  const all = head && !commits.some((c) => c.id === head.id) ? [...commits, head] : commits;
  const seen = new Set<string>();
  return all.flatMap((c) => {
    const sha = c.id.toLowerCase();
    if (seen.has(sha)) return [];
    seen.add(sha);
    return [toPushed(c, now)];
  });
}

const PR_STATE = new Set<string>(pullRequestStates);
const cut = (s: string, n: number) => s.slice(0, n);

/**
 * The news in one GitHub delivery, by its `X-GitHub-Event`; null for an event kind that
 * does not link code, or a payload without what it needs (a tag push, a deleted branch).
 */
export function githubNews(event: string, payload: unknown, now: string): CodeNews | null {
  if (event === 'push') {
    const push = githubPush.safeParse(payload);
    if (!push.success || !push.data.ref.startsWith('refs/heads/')) return null;
    const p = push.data;
    const defaultBranch = p.repository.default_branch ?? p.repository.master_branch;
    return {
      kind: 'push',
      repository: cut(p.repository.full_name, 300),
      toDefaultBranch: !!defaultBranch && p.ref === `refs/heads/${defaultBranch}`,
      commits: pushedCommits(p.commits ?? [], p.head_commit, now),
    };
  }
  if (event === 'pull_request') {
    const parsed = githubPullRequest.safeParse(payload);
    if (!parsed.success) return null;
    const pr = parsed.data.pull_request;
    const merged = pr.merged === true || !!pr.merged_at;
    return {
      kind: 'request',
      repository: cut(parsed.data.repository.full_name, 300),
      number: pr.number,
      title: cut(pr.title, 500),
      body: pr.body,
      url: cut(pr.html_url, 2048),
      state: merged ? 'merged' : PR_STATE.has(pr.state) ? (pr.state as PullRequestState) : 'open',
      // GitHub names a request's author by login only: no email to match.
      authorEmail: null,
    };
  }
  return null;
}

const GITLAB_STATES: Readonly<Record<string, PullRequestState>> = {
  opened: 'open',
  locked: 'open',
  closed: 'closed',
  merged: 'merged',
};

/** The news in one GitLab delivery, by its `X-Gitlab-Event` (or the payload's `object_kind`). */
export function gitlabNews(event: string, payload: unknown, now: string): CodeNews | null {
  const kind = (payload as { object_kind?: unknown } | null)?.object_kind;
  if (event === 'Push Hook' || (event === 'System Hook' && kind === 'push')) {
    const push = gitlabPush.safeParse(payload);
    if (!push.success || !push.data.ref.startsWith('refs/heads/')) return null;
    const p = push.data;
    return {
      kind: 'push',
      repository: cut(p.project.path_with_namespace, 300),
      toDefaultBranch: !!p.project.default_branch && p.ref === `refs/heads/${p.project.default_branch}`,
      commits: pushedCommits(p.commits ?? [], null, now),
    };
  }
  if (event === 'Merge Request Hook' || (event === 'System Hook' && kind === 'merge_request')) {
    const parsed = gitlabMergeRequest.safeParse(payload);
    if (!parsed.success) return null;
    const mr = parsed.data.object_attributes;
    return {
      kind: 'request',
      repository: cut(parsed.data.project.path_with_namespace, 300),
      number: mr.iid,
      title: cut(mr.title, 500),
      body: mr.description,
      url: cut(mr.url, 2048),
      state: GITLAB_STATES[mr.state] ?? 'open',
      authorEmail: parsed.data.user?.email ?? null,
    };
  }
  return null;
}

export const codeHostNames: Readonly<Record<CodeHost, string>> = { github: 'GitHub', gitlab: 'GitLab' };
