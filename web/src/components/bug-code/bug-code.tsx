import { GitCommitHorizontal, GitMerge, GitPullRequest, GitPullRequestClosed } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/format';
import type { Bug } from '../../lib/types';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';

/**
 * The commits and pull (merge) requests that name the bug (`#42`), as GitHub's and
 * GitLab's webhooks told us (api.md "Integrations"). Read-only: they come from the code
 * host. A request shows its latest state; "fixes #42" reaching the default branch is
 * what closed the bug, and the Activity says so.
 */

type Code = Bug['code'];
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const none: Code = { commits: [], pullRequests: [] };

/** Only web addresses become links (the payload is the host's, but never a `javascript:` href). */
const safeUrl = (url: string): string | undefined => (/^https?:\/\//i.test(url) ? url : undefined);

const requestLook = {
  open: { label: 'Open', icon: GitPullRequest, tone: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20' },
  merged: { label: 'Merged', icon: GitMerge, tone: 'bg-violet-50 text-violet-800 ring-violet-600/20' },
  closed: { label: 'Closed', icon: GitPullRequestClosed, tone: 'bg-slate-100 text-slate-700 ring-slate-500/20' },
} as const;

function ExternalLink({ url, className, children }: { url: string; className?: string; children: ReactNode }) {
  const href = safeUrl(url);
  if (!href) return <span className={className}>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noreferrer noopener" className={cx(className, 'hover:underline')}>
      {children}
    </a>
  );
}

export function BugCode({ bug, className }: { bug: Bug; className?: string }) {
  const code = bug.code ?? none;
  const count = code.commits.length + code.pullRequests.length;
  return (
    <Card className={className}>
      <CardHeader
        title="Code"
        subtitle={
          count === 0
            ? undefined
            : `${plural(code.pullRequests.length, 'pull request')} · ${plural(code.commits.length, 'commit')}`
        }
      />
      <div className="space-y-4 p-5">
        {count === 0 ? (
          <p className="text-sm text-slate-500">
            No commits or pull requests yet. Name <span className="font-mono text-slate-700">#{bug.number ?? 'N'}</span>{' '}
            in a commit message or pull request to link it;{' '}
            <span className="font-mono text-slate-700">fixes #{bug.number ?? 'N'}</span> closes the bug when it reaches
            the default branch.
          </p>
        ) : null}
        {code.pullRequests.length > 0 ? (
          <ul className="space-y-2" aria-label="Pull requests">
            {code.pullRequests.map((request) => {
              const look = requestLook[request.state];
              const Icon = look.icon;
              return (
                <li key={`${request.repository}#${request.number}`} className="flex items-start gap-2 text-sm">
                  <span
                    className={cx(
                      'mt-0.5 inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
                      look.tone,
                    )}
                  >
                    <Icon className="size-3.5" aria-hidden="true" />
                    {look.label}
                  </span>
                  <div className="min-w-0">
                    <ExternalLink url={request.url} className="font-medium text-slate-900 [overflow-wrap:anywhere]">
                      {request.title || `#${request.number}`}
                    </ExternalLink>
                    <p className="text-xs text-slate-500 [overflow-wrap:anywhere]">
                      {request.repository}#{request.number}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        ) : null}
        {code.commits.length > 0 ? (
          <ul className="space-y-2" aria-label="Commits">
            {code.commits.map((commit) => (
              <li key={`${commit.repository}@${commit.sha}`} className="flex items-start gap-2 text-sm">
                <GitCommitHorizontal className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="text-slate-900 [overflow-wrap:anywhere]">
                    <ExternalLink url={commit.url} className="mr-1.5 font-mono text-xs text-brand-700">
                      {commit.sha.slice(0, 7)}
                    </ExternalLink>
                    {commit.message.split('\n')[0]}
                  </p>
                  <p className="text-xs text-slate-500 [overflow-wrap:anywhere]">
                    {commit.author || 'Unknown author'} · {commit.repository} · {formatDateTime(commit.at)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Card>
  );
}
