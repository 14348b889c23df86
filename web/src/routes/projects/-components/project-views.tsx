import { Link } from '@tanstack/react-router';
import { Flag, KanbanSquare, List } from 'lucide-react';
import { cx } from '../../../components/ui/cx';

/**
 * A project's views of its bugs (api.md "Projects": list and board; "Milestones"), as links: each
 * has its own address.
 */
export function ProjectViews({
  projectKey,
  current,
}: {
  projectKey: string;
  current: 'list' | 'board' | 'milestones';
}) {
  const linkClass = (isActive: boolean) =>
    cx(
      'inline-flex items-center gap-1.5 rounded-lg px-3.5 py-1.5 text-sm font-medium whitespace-nowrap transition',
      isActive ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
    );
  return (
    <nav aria-label="Project views" className="mb-4">
      <ul className="inline-flex max-w-full flex-wrap gap-1 rounded-xl bg-slate-100 p-1">
        <li>
          <Link
            to="/projects/$key"
            params={{ key: projectKey }}
            aria-current={current === 'list' ? 'page' : undefined}
            className={linkClass(current === 'list')}
          >
            <List className="size-4" aria-hidden="true" /> List
          </Link>
        </li>
        <li>
          <Link
            to="/projects/$key/board"
            params={{ key: projectKey }}
            aria-current={current === 'board' ? 'page' : undefined}
            className={linkClass(current === 'board')}
          >
            <KanbanSquare className="size-4" aria-hidden="true" /> Board
          </Link>
        </li>
        <li>
          <Link
            to="/projects/$key/milestones"
            params={{ key: projectKey }}
            aria-current={current === 'milestones' ? 'page' : undefined}
            className={linkClass(current === 'milestones')}
          >
            <Flag className="size-4" aria-hidden="true" /> Milestones
          </Link>
        </li>
      </ul>
    </nav>
  );
}
