import { useQuery } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { PRODUCT_NAME } from '../components/logo';
import { bugQuery } from './queries';

/**
 * Every tab says which page it shows: "Page — Bugtrail". One table for the whole app,
 * keyed by the route's path (ids as `$bugId`), so no page has to remember to set it.
 * A bug page shows the bug's title once it is loaded.
 */
const titles: Record<string, string> = {
  '/landing': 'Bug tracking for development teams',
  '/login': 'Log in',
  '/signup': 'Sign up',
  '/forgot-password': 'Forgot password',
  '/reset-password': 'Reset password',
  '/unsubscribe': 'Unsubscribe',
  '/profile': 'Profile',
  '/profile/security': 'Security',
  '/admin/dashboard': 'Dashboard',
  '/admin/flow': 'Flow',
  '/admin/bugs': 'Manage Bugs',
  '/admin/bugs/$bugId': 'Bug',
  '/admin/users': 'Team Members',
  '/admin/chats': 'Chats',
  '/admin/create-bug': 'Create Bug',
  '/admin/import': 'Import bugs',
  '/tester/dashboard': 'Dashboard',
  '/tester/my-bugs': 'My Reported Bugs',
  '/tester/all-bugs': 'All Bugs',
  '/tester/report-bug': 'Report Bug',
  '/tester/bug/$bugId': 'Bug',
  '/tester/edit-bug/$bugId': 'Edit Bug',
  '/tester/chats': 'Chats',
  '/developer/dashboard': 'Dashboard',
  '/developer/assigned-bugs': 'Assigned Bugs',
  '/developer/assigned-bugs/$bugId': 'Bug',
  '/developer/update-bugs': 'Update Bug Status',
  '/developer/chats': 'Chats',
  '/auditor/dashboard': 'Dashboard',
  '/auditor/flow': 'Flow',
  '/auditor/bugs': 'All Bugs',
  '/auditor/bugs/$bugId': 'Bug',
  '/projects': 'Projects',
  '/projects/$key/settings': 'Project settings',
};

export const NOT_FOUND_TITLE = 'Page not found';

export function documentTitle(page: string | null): string {
  return page ? `${page} — ${PRODUCT_NAME}` : PRODUCT_NAME;
}

/** Renders nothing; keeps document.title in step with the route. Mounted once, in __root. */
export function DocumentTitle() {
  // Index routes end in "/": "/admin/bugs/" is "/admin/bugs".
  const path = useRouterState({ select: (state) => (state.matches.at(-1)?.fullPath ?? '/').replace(/(.)\/$/, '$1') });
  const bugId = useRouterState({
    select: (state) => (state.matches.at(-1)?.params as Record<string, string | undefined> | undefined)?.bugId,
  });
  const isNotFound = useRouterState({
    select: (state) => state.matches.some((match) => match.status === 'notFound' || match._notFound === true),
  });
  const page = isNotFound ? NOT_FOUND_TITLE : (titles[path] ?? null);
  return bugId && !isNotFound ? <BugTitle id={bugId} fallback={page} /> : <Title page={page} />;
}

/** The bug's own title when the page has it in the cache (its loader put it there). */
function BugTitle({ id, fallback }: { id: string; fallback: string | null }) {
  const { data: bug } = useQuery({ ...bugQuery(id), enabled: false });
  const name = bug?.title?.trim();
  return <Title page={name ? (fallback === 'Edit Bug' ? `Edit: ${name}` : name) : fallback} />;
}

function Title({ page }: { page: string | null }) {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
  return null;
}
