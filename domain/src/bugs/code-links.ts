import { z } from 'zod';
import { NotFoundError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import type { BugState } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { bugMessages } from './permissions.js';

/**
 * Commits and pull (merge) requests that name a bug (api.md "Integrations", code links).
 * A code host's signed webhook says what happened; these events put it in the bug's
 * stream, so the bug page, its history, time travel and outgoing webhooks all see it.
 * Who acted is not checked against the bug's permissions: the webhook's secret is the
 * authority, as on GitHub.
 */

export const codeHosts = ['github', 'gitlab'] as const;
export type CodeHost = (typeof codeHosts)[number];
export const pullRequestStates = ['open', 'closed', 'merged'] as const;
export type PullRequestState = (typeof pullRequestStates)[number];

const id = z.string().min(1).max(100);
const url = z.string().min(1).max(2048);
const repository = z.string().min(1).max(300);

export const commitLinkedData = z.object({
  bugId: id,
  sha: z.string().min(7).max(64),
  /** The commit message, cut at 2,000 characters. */
  message: z.string().max(2000),
  url,
  /** The author's name as the commit records it. */
  author: z.string().max(200),
  /** `owner/name` (GitHub) or `group/project` (GitLab). */
  repository,
  /** When the commit was made, as the code host says. */
  at: z.string().datetime({ offset: true }),
});

/** A request linked, or one already linked whose title, state or address changed. */
export const pullRequestLinkedData = z.object({
  bugId: id,
  number: z.number().int().positive(),
  title: z.string().max(500),
  url,
  state: z.enum(pullRequestStates),
  repository,
});

export const codeLinkEventSchemas = {
  CommitLinked: { version: 1, data: commitLinkedData },
  PullRequestLinked: { version: 1, data: pullRequestLinkedData },
} as const;

export type CommitLinkedData = z.infer<typeof commitLinkedData>;
export type PullRequestLinkedData = z.infer<typeof pullRequestLinkedData>;

export type CommitLink = Readonly<Omit<CommitLinkedData, 'bugId'>>;
export type PullRequestLink = Readonly<Omit<PullRequestLinkedData, 'bugId'>>;
export type CodeLinks = Readonly<{ commits: readonly CommitLink[]; pullRequests: readonly PullRequestLink[] }>;

export const noCodeLinks: CodeLinks = { commits: [], pullRequests: [] };

/** The code links after one event; the same object when it changes nothing (a repeated link). */
export function evolveCodeLinks(
  code: CodeLinks,
  event:
    | Readonly<{ type: 'CommitLinked'; data: Readonly<CommitLinkedData> }>
    | Readonly<{ type: 'PullRequestLinked'; data: Readonly<PullRequestLinkedData> }>,
): CodeLinks {
  if (event.type === 'CommitLinked') {
    const { bugId: _, ...commit } = event.data;
    if (code.commits.some((c) => sameCommit(c, commit))) return code;
    return { ...code, commits: [...code.commits, commit] };
  }
  const { bugId: _, ...request } = event.data;
  const known = code.pullRequests.findIndex((p) => sameRequest(p, request));
  if (known < 0) return { ...code, pullRequests: [...code.pullRequests, request] };
  if (samePullRequestLink(code.pullRequests[known]!, request)) return code;
  return { ...code, pullRequests: code.pullRequests.map((p, i) => (i === known ? request : p)) };
}

const sameCommit = (a: Pick<CommitLink, 'sha' | 'repository'>, b: Pick<CommitLink, 'sha' | 'repository'>) =>
  a.sha === b.sha && a.repository === b.repository;
const sameRequest = (
  a: Pick<PullRequestLink, 'number' | 'repository'>,
  b: Pick<PullRequestLink, 'number' | 'repository'>,
) => a.number === b.number && a.repository === b.repository;
const samePullRequestLink = (a: PullRequestLink, b: PullRequestLink) =>
  a.title === b.title && a.state === b.state && a.url === b.url;

// ── what a text says ──────────────────────────────────────────────────────────

/** The words that close a bug when they come before its number (as GitHub's own). */
const CLOSING = /\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b:?\s+#(\d{1,9})\b/gi;
/** `#42` anywhere, but not inside a word, a URL fragment or an HTML entity (`&#42;`). */
const MENTION = /(?<![\w&/#])#(\d{1,9})\b/g;

export type BugReferences = Readonly<{ mentioned: readonly number[]; closed: readonly number[] }>;

/** The bug numbers a commit message or a request's title and body name, and those it says it fixes. */
export function bugReferences(...texts: readonly (string | null | undefined)[]): BugReferences {
  const mentioned = new Set<number>();
  const closed = new Set<number>();
  for (const text of texts) {
    if (!text) continue;
    for (const m of text.matchAll(MENTION)) mentioned.add(Number(m[1]));
    for (const m of text.matchAll(CLOSING)) closed.add(Number(m[1]));
  }
  for (const n of closed) mentioned.add(n);
  const valid = (n: number) => Number.isSafeInteger(n) && n > 0;
  return { mentioned: [...mentioned].filter(valid), closed: [...closed].filter(valid) };
}

/** The words that close a bug before its key (`fixes WEB-7`); the key itself is matched as written. */
const CLOSING_KEY = /\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b:?\s+([A-Za-z][A-Za-z0-9]{1,9}-\d{1,9})\b/gi;
/** `WEB-7` anywhere, not inside a word or a longer token (`X-WEB-7`, `WEB-7-2`). */
const KEY = /(?<![\w-])([A-Z][A-Z0-9]{1,9})-([1-9]\d{0,8})(?![\w-])/g;

/**
 * The bug keys (`WEB-7`, issue 35) a text names, and those it says it fixes: capitals, as keys
 * are written; a key that names no bug (`UTF-8`) is the caller's to ignore.
 */
export function bugKeyReferences(...texts: readonly (string | null | undefined)[]): {
  mentioned: readonly string[];
  closed: readonly string[];
} {
  const mentioned = new Set<string>();
  const closed = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const m of text.matchAll(KEY)) mentioned.add(`${m[1]}-${m[2]}`);
    for (const m of text.matchAll(CLOSING_KEY)) {
      const key = m[1]!;
      if (/^[A-Z][A-Z0-9]{1,9}-[1-9]\d{0,8}$/.test(key)) closed.add(key);
    }
  }
  for (const key of closed) mentioned.add(key);
  return { mentioned: [...mentioned], closed: [...closed] };
}

// ── the command ───────────────────────────────────────────────────────────────

/**
 * A code host's news for one bug: commits and requests that name it, and whether one of
 * them closes it now (a fixing commit reached the default branch, a fixing request was
 * merged). Links the bug already shows are no news; a closed bug stays closed.
 */
export type LinkCode = Command<
  'LinkCode',
  {
    bugId: string;
    commits: readonly CommitLink[];
    pullRequests: readonly PullRequestLink[];
    close: boolean;
  }
>;

export function decideLinkCode(command: LinkCode, state: BugState): BugEvent[] {
  // A deleted bug is as good as none: its number is ignored.
  if (state.kind !== 'reported' || state.deleted) throw new NotFoundError(bugMessages.notFound);
  const bugId = state.id;
  const events: BugEvent[] = [];
  const seen = new Set<string>();
  for (const commit of command.data.commits) {
    const key = `${commit.repository}\u0000${commit.sha}`;
    if (seen.has(key) || state.code.commits.some((c) => sameCommit(c, commit))) continue;
    seen.add(key);
    events.push({ type: 'CommitLinked', data: { bugId, ...commit } });
  }
  for (const request of command.data.pullRequests) {
    const known = state.code.pullRequests.find((p) => sameRequest(p, request));
    if (known && samePullRequestLink(known, request)) continue;
    events.push({ type: 'PullRequestLinked', data: { bugId, ...request } });
  }
  if (command.data.close && state.status !== 'Closed') {
    events.push({ type: 'BugStatusChanged', data: { bugId, from: state.status, to: 'Closed' } });
  }
  return events;
}
