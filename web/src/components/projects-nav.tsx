import { useQuery } from '@tanstack/react-query';
import { Link, useRouterState } from '@tanstack/react-router';
import { FolderKanban } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { currentProjectKey, subscribeCurrentProject } from '../lib/current-project';
import { projectsQuery } from '../lib/projects';
import { cx } from './ui/cx';

/**
 * The project switcher (api.md "Projects"): the projects the caller may see, in the sidebar;
 * each opens its bugs, and the one worked in last is marked current (kept across reloads).
 * "All projects" opens the list.
 */
export function ProjectsNav() {
  const projects = useQuery(projectsQuery());
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const current = useSyncExternalStore(subscribeCurrentProject, currentProjectKey, () => null);
  const shown = (projects.data?.projects ?? []).filter((p) => !p.archived);
  const linkClass = (isActive: boolean) =>
    cx(
      'flex min-w-0 items-center gap-2 rounded-lg px-3 py-1.5 text-sm',
      isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
    );
  return (
    <nav aria-label="Projects" className="border-t border-slate-100 px-3 py-3">
      <Link
        to="/projects"
        aria-current={pathname === '/projects' ? 'page' : undefined}
        className={cx(linkClass(pathname === '/projects'), 'font-medium')}
      >
        <FolderKanban className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
        All projects
      </Link>
      <ul className="mt-0.5 max-h-48 space-y-0.5 overflow-y-auto">
        {shown.map((project) => {
          const isActive = pathname.startsWith(`/projects/${project.key}/`) || pathname === `/projects/${project.key}`;
          const isCurrent = project.key === current;
          return (
            <li key={project._id}>
              <Link
                to="/projects/$key"
                params={{ key: project.key }}
                aria-current={isActive ? 'page' : undefined}
                className={linkClass(isActive)}
              >
                <span className="w-10 shrink-0 font-mono text-xs font-semibold">{project.key}</span>
                <span className="truncate">{project.name}</span>
                {isCurrent ? (
                  <span className="ml-auto size-1.5 shrink-0 rounded-full bg-brand-500" title="Current project">
                    <span className="sr-only">(current project)</span>
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
