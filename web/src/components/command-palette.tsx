import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Bug, CornerDownLeft, FileText, Search } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { bugName, bugTitle, statusLabel } from '../lib/format';
import { labelsQuery } from '../lib/labels';
import { projectsQuery } from '../lib/projects';
import { bugSearchQuery } from '../lib/queries';
import type { Role } from '../lib/types';
import { useDebounced } from '../lib/use-debounced';
import { savedViewsQuery, viewHref } from '../lib/views';
import { bugPath, navByRole } from './nav';
import { cx } from './ui/cx';
import { Spinner } from './ui/spinner';

type Item = {
  key: string;
  label: string;
  hint: string;
  to: string;
  kind: 'bug' | 'page' | 'view' | 'project' | 'label';
};

/** Where a label's bugs are listed, per role (the list of every bug the role may see). */
const labelListPath: Record<Role, string> = {
  admin: '/admin/bugs',
  tester: '/tester/all-bugs',
  developer: '/developer/assigned-bugs',
  auditor: '/auditor/bugs',
};

const extraPages: Record<Role, { to: string; label: string }[]> = {
  admin: [{ to: '/admin/create-bug', label: 'Create Bug' }],
  tester: [],
  developer: [],
  auditor: [],
};

/** Ctrl/Cmd-K: jump to a bug by title, or to any page of the role. */
export function CommandPalette({ isOpen, onClose, role }: { isOpen: boolean; onClose: () => void; role: Role }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const q = useDebounced(query.trim(), 200);
  const search = useQuery({ ...bugSearchQuery(q), enabled: isOpen && q.length > 0 });
  const views = useQuery({ ...savedViewsQuery(), enabled: isOpen });
  const projects = useQuery({ ...projectsQuery(), enabled: isOpen });
  const labels = useQuery({ ...labelsQuery(), enabled: isOpen });

  const items = useMemo<Item[]>(() => {
    const needle = query.trim().toLowerCase();
    const pages = [...navByRole[role], ...extraPages[role]]
      .filter((page) => !needle || page.label.toLowerCase().includes(needle))
      .map((page) => ({ key: `page:${page.to}`, label: page.label, hint: 'Page', to: page.to, kind: 'page' as const }));
    const bugs =
      needle && q
        ? (search.data?.bugs ?? []).map((bug) => ({
            key: `bug:${bug._id}`,
            label: `${bugName(bug)} ${bugTitle(bug)}`.trim(),
            hint: statusLabel(bug.status, role),
            to: bugPath(role, bug._id),
            kind: 'bug' as const,
          }))
        : [];
    const saved = (views.data ?? [])
      .filter((view) => !needle || view.name.toLowerCase().includes(needle))
      .map((view) => ({
        key: `view:${view._id}`,
        label: view.name,
        hint: 'Saved view',
        to: viewHref(view),
        kind: 'view' as const,
      }));
    // Projects the caller may see, by key or name (a private one is in the list only for its members).
    const projectItems = (projects.data?.projects ?? [])
      .filter((p) => !needle || p.key.toLowerCase().includes(needle) || p.name.toLowerCase().includes(needle))
      .map((p) => ({
        key: `project:${p._id}`,
        label: `${p.key} ${p.name}`,
        hint: 'Project',
        to: `/projects/${p.key}`,
        kind: 'project' as const,
      }));
    // Labels, by name: their bugs in the role's list (issue 36).
    const labelItems = needle
      ? (labels.data?.labels ?? [])
          .filter((l) => l.name.toLowerCase().includes(needle))
          .map((l) => ({
            key: `label:${l._id}`,
            label: `Bugs labelled ${l.name}`,
            hint: 'Label',
            to: `${labelListPath[role]}?label=${encodeURIComponent(l._id)}`,
            kind: 'label' as const,
          }))
      : [];
    return [...bugs, ...saved, ...projectItems, ...labelItems, ...pages];
  }, [query, q, role, search.data, views.data, projects.data, labels.data]);

  useEffect(() => {
    if (isOpen) {
      setQuery('');
      setActive(0);
      const previous = document.activeElement as HTMLElement | null;
      requestAnimationFrame(() => input.current?.focus());
      return () => previous?.focus?.();
    }
    return undefined;
  }, [isOpen]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new result list starts at its top
  useEffect(() => setActive(0), [items.length]);

  if (!isOpen) return null;

  const go = (item: Item | undefined) => {
    if (!item) return;
    onClose();
    const [to, query = ''] = item.to.split('?');
    void navigate({ to, search: Object.fromEntries(new URLSearchParams(query)) } as never);
  };

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop click mirrors Escape, which keyboards use
    <div
      className="fixed inset-0 z-50 flex items-start justify-center bg-slate-900/50 px-4 pt-[12vh] backdrop-blur-[2px]"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        className="w-full max-w-xl overflow-hidden rounded-2xl bg-white shadow-2xl"
      >
        <div className="flex items-center gap-3 border-b border-slate-100 px-4">
          <Search className="size-5 text-slate-400" aria-hidden="true" />
          <input
            ref={input}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown') {
                event.preventDefault();
                setActive((index) => Math.min(index + 1, items.length - 1));
              } else if (event.key === 'ArrowUp') {
                event.preventDefault();
                setActive((index) => Math.max(index - 1, 0));
              } else if (event.key === 'Enter') {
                event.preventDefault();
                go(items[active]);
              } else if (event.key === 'Escape' || event.key === 'Tab') {
                event.preventDefault();
                if (event.key === 'Escape') onClose();
              }
            }}
            role="combobox"
            aria-expanded={items.length > 0}
            aria-controls={items.length > 0 ? listId : undefined}
            aria-activedescendant={items[active] ? `${listId}-${active}` : undefined}
            aria-label="Search bugs and pages"
            placeholder="Jump to a bug by title, or a page…"
            className="h-14 flex-1 bg-transparent text-base text-slate-900 placeholder:text-slate-400 focus:outline-none"
          />
          {search.isFetching ? <Spinner className="size-4 text-brand-600" /> : null}
        </div>
        {items.length === 0 ? (
          // Not inside the listbox: a listbox holds options only (axe aria-required-children).
          <p role="status" className="px-5 py-10 text-center text-sm text-slate-500">
            {search.isFetching ? 'Searching…' : 'No results'}
          </p>
        ) : (
          <div id={listId} role="listbox" aria-label="Results" className="max-h-80 overflow-y-auto p-2">
            {items.map((item, index) => (
              <div
                key={item.key}
                id={`${listId}-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                onMouseEnter={() => setActive(index)}
                onMouseDown={(event) => {
                  event.preventDefault();
                  go(item);
                }}
                className={cx(
                  'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 text-sm',
                  index === active ? 'bg-brand-50 text-brand-800' : 'text-slate-700',
                )}
              >
                {item.kind === 'bug' ? (
                  <Bug className="size-4 shrink-0 text-slate-400" />
                ) : (
                  <FileText className="size-4 shrink-0 text-slate-400" />
                )}
                <span className="min-w-0 flex-1 truncate">{item.label}</span>
                <span className="text-xs text-slate-600">{item.hint}</span>
                {index === active ? <CornerDownLeft className="size-3.5 text-slate-400" /> : null}
              </div>
            ))}
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
}
