import { roleDisplayNames } from '@bugtrail/domain/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { LogOut, Menu, Search, ShieldCheck, X } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { api } from '../lib/api';
import { clearSession, profileQuery } from '../lib/session';
import type { Role, User } from '../lib/types';
import { LiveIndicator, useLiveUpdates } from '../live';
import { CommandPalette } from './command-palette';
import { Logo, PRODUCT_NAME } from './logo';
import { navByRole } from './nav';
import { NotificationBell } from './notifications/notification-bell';
import { OfflineBanner } from './offline-banner';
import { ProjectsNav } from './projects-nav';
import { SavedViewsNav } from './saved-views-nav';
import { GlobalShortcuts } from './shortcuts';
import { ThemeToggle } from './theme-toggle';
import { Avatar } from './ui/avatar';
import { cx } from './ui/cx';
import { FullScreenSpinner } from './ui/spinner';

/** Everything behind the guard: sidebar (a drawer under 1080px), header, page (the route's, or `children`: the 404). */
export function AppLayout({ area: role, children }: { area: Role; children?: ReactNode }) {
  const { data: user, isPending } = useQuery(profileQuery());
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isDrawerOpen, setDrawerOpen] = useState(false);
  const [isPaletteOpen, setPaletteOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // One live stream per signed-in tab: it invalidates exactly the queries its topics name.
  useLiveUpdates();

  // The session guard: no user loaded means no session (a failed refetch keeps the user: only a 401 ends it).
  useEffect(() => {
    if (!isPending && !user) void navigate({ to: '/login' });
  }, [isPending, user, navigate]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the drawer on every navigation
  useEffect(() => setDrawerOpen(false), [pathname]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteOpen((open) => !open);
      }
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const logout = async () => {
    // Revoke server-side too, but never let a failure keep the user logged in.
    await api('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
    clearSession();
    queryClient.clear();
    await navigate({ to: '/login' });
  };

  if (!user) return <FullScreenSpinner />;

  return (
    <div className="min-h-screen bg-slate-50 app:flex">
      {/* The column stretches with the page; the sidebar inside it stays in view. */}
      <div className="hidden w-64 shrink-0 border-r border-slate-200 bg-white app:block">
        <aside className="sticky top-0 h-screen" aria-label="Sidebar">
          <Sidebar user={user} role={role} pathname={pathname} onLogout={logout} />
        </aside>
      </div>

      {isDrawerOpen ? (
        <div className="fixed inset-0 z-40 app:hidden" role="dialog" aria-modal="true" aria-label="Menu">
          <button
            type="button"
            aria-label="Close menu"
            className="absolute inset-0 bg-slate-900/40"
            onClick={() => setDrawerOpen(false)}
          />
          <aside className="relative h-full w-72 max-w-[85vw] bg-white shadow-2xl">
            <button
              type="button"
              aria-label="Close menu"
              onClick={() => setDrawerOpen(false)}
              className="absolute top-4 right-3 rounded-lg p-1.5 text-slate-500 hover:bg-slate-100"
            >
              <X className="size-5" />
            </button>
            <Sidebar user={user} role={role} pathname={pathname} onLogout={logout} />
          </aside>
        </div>
      ) : null}

      <div className="min-w-0 flex-1">
        <header className="sticky top-0 z-20 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6">
          <button
            type="button"
            className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 app:hidden"
            aria-label="Open menu"
            aria-expanded={isDrawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <Menu className="size-5" />
          </button>
          <p className="truncate text-base font-semibold text-slate-900">Bug Tracker</p>
          <button
            type="button"
            onClick={() => setPaletteOpen(true)}
            className="ml-auto flex h-9 shrink-0 items-center gap-2 rounded-lg border whitespace-nowrap border-slate-200 bg-slate-50 px-3 text-sm text-slate-500 hover:border-slate-300 hover:bg-white sm:w-72"
            aria-keyshortcuts="Control+K"
          >
            {/* Named by its own words (WCAG 2.5.3): a label apart from the visible text would not contain "Ctrl K". */}
            <Search className="size-4" aria-hidden="true" />
            <span className="hidden sm:inline">
              Search bugs and pages<span aria-hidden="true">…</span>
            </span>
            <span className="sr-only sm:hidden">Search bugs and pages</span>
            <kbd className="ml-auto hidden rounded border border-slate-200 bg-white px-1.5 text-[11px] font-medium text-slate-500 sm:inline">
              Ctrl K
            </kbd>
          </button>
          <LiveIndicator />
          <NotificationBell role={user.role} />
          <ThemeToggle />
          <Link to="/profile" className="hidden rounded-full sm:inline-flex">
            {/* Named by words of its own, not a label over the initials it shows (WCAG 2.5.3). */}
            <span className="sr-only">Profile and appearance</span>
            <Avatar user={user} size="sm" />
          </Link>
        </header>
        <OfflineBanner />
        <main className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">{children ?? <Outlet />}</main>
      </div>
      <CommandPalette isOpen={isPaletteOpen} onClose={() => setPaletteOpen(false)} role={role} />
      <GlobalShortcuts role={role} onSearch={() => setPaletteOpen(true)} />
    </div>
  );
}

function Sidebar({
  user,
  role,
  pathname,
  onLogout,
}: {
  user: User;
  role: Role;
  pathname: string;
  onLogout: () => void;
}) {
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 items-center border-b border-slate-100 px-5">
        {/* The name says what it shows (label in name): "Bugtrail", and where it goes. */}
        <Link to="/" aria-label={`${PRODUCT_NAME} home`}>
          <Logo />
        </Link>
      </div>
      <div className="flex flex-col items-center border-b border-slate-100 px-5 py-6 text-center">
        <Avatar user={user} size="lg" className="ring-4 ring-brand-50" />
        <span className="mt-3 rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">
          {roleDisplayNames[role]}
        </span>
        <p className="mt-2 max-w-full truncate text-sm font-semibold text-slate-900">{user.name}</p>
        <p className="max-w-full truncate text-xs text-slate-500">{user.email}</p>
        <Link
          to="/profile/security"
          className="mt-3 inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50"
        >
          <ShieldCheck className="size-3.5" aria-hidden />
          Account security
        </Link>
      </div>
      <nav className="flex-1 overflow-y-auto px-3 py-4" aria-label="Main">
        <ul className="space-y-1">
          {navByRole[role].map(({ to, label, icon: Icon }) => {
            const isActive = pathname === to || pathname.startsWith(`${to}/`);
            return (
              <li key={to}>
                <Link
                  to={to}
                  aria-current={isActive ? 'page' : undefined}
                  className={cx(
                    'flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition',
                    isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                  )}
                >
                  <Icon className={cx('size-5', isActive ? 'text-brand-600' : 'text-slate-400')} />
                  {label}
                </Link>
              </li>
            );
          })}
          <li>
            <button
              type="button"
              onClick={onLogout}
              className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-600 hover:bg-rose-50 hover:text-rose-700"
            >
              <LogOut className="size-5 text-slate-400" />
              Logout
            </button>
          </li>
        </ul>
      </nav>
      <ProjectsNav />
      <SavedViewsNav />
    </div>
  );
}
