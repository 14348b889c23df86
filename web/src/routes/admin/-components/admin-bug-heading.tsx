import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { BugNames } from '../../../components/bug-names';
import { BugLabels } from '../../../components/labels/bug-labels';
import { PlanningNotices } from '../../../components/planning/planning-notices';
import { formatDate, reporterName } from '../../../lib/format';
import type { Bug } from '../../../lib/types';

/**
 * The top of the admin's bug page: the way back to All Bugs, the bug's number, title and
 * reporter (the page's heading), what the page does to the bug as a whole, and the form's
 * own heading.
 */
export function AdminBugHeading({ bug, actions, labels }: { bug: Bug; actions?: ReactNode; labels?: ReactNode }) {
  return (
    <>
      <Link
        to="/admin/bugs"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
      >
        <ArrowLeft className="size-4" /> Back to All Bugs
      </Link>
      <div className="mb-6 flex min-w-0 flex-col gap-1">
        {/* The page's heading is the bug (api.md "Web conventions"); the form is its section. */}
        <BugNames bug={bug} />
        <div className="flex min-w-0 flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 [overflow-wrap:anywhere]">
              {bug.title}
            </h1>
            <p className="text-sm text-slate-500">
              Reported by {reporterName(bug.createdBy)} on {formatDate(bug.createdAt)}
            </p>
            <PlanningNotices bug={bug} className="mt-2" />
            {labels ?? <BugLabels bug={bug} className="mt-2" />}
          </div>
          {actions}
        </div>
        <h2 className="mt-4 text-sm font-semibold tracking-wide text-slate-500 uppercase">View / Update Bug</h2>
      </div>
    </>
  );
}
