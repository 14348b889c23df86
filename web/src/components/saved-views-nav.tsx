import { useQuery } from '@tanstack/react-query';
import { Link, useRouterState } from '@tanstack/react-router';
import { Bookmark, X } from 'lucide-react';
import { notify } from '../lib/notify';
import { savedViewsQuery, useDeleteView, viewHref, viewTarget } from '../lib/views';
import { cx } from './ui/cx';

/** The caller's saved views in the sidebar: each opens its list as saved; × forgets it. */
export function SavedViewsNav() {
  const views = useQuery(savedViewsQuery());
  const remove = useDeleteView();
  const here = useRouterState({ select: (s) => `${s.location.pathname}${s.location.searchStr}` });
  if (!views.data || views.data.length === 0) return null;
  return (
    <nav aria-label="Saved views" className="border-t border-slate-100 px-3 py-3">
      <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Saved views</p>
      <ul className="space-y-0.5">
        {views.data.map((view) => {
          const href = viewHref(view);
          const active = here === href;
          return (
            <li key={view._id} className="group flex items-center">
              <Link
                {...(viewTarget(view) as { to: '/' })}
                aria-current={active ? 'page' : undefined}
                className={cx(
                  'flex min-w-0 flex-1 items-center gap-3 rounded-lg px-3 py-2 text-sm',
                  active ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                )}
              >
                <Bookmark className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
                <span className="truncate">{view.name}</span>
              </Link>
              <button
                type="button"
                aria-label={`Forget the view ${view.name}`}
                onClick={() =>
                  remove.mutate(view._id, {
                    onSuccess: () => notify.success(`Removed view “${view.name}”`),
                    onError: () => notify.error('Failed to remove the view'),
                  })
                }
                className="rounded p-1 text-slate-400 opacity-0 group-hover:opacity-100 hover:text-rose-600 focus:opacity-100"
              >
                <X className="size-3.5" />
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
