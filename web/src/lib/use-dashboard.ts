import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from './queries';
import { profileQuery } from './session';
import type { Role } from './types';
import { useErrorToast } from './use-error-toast';

/** The signed-in user's name and the role's dashboard query, toasting when the dashboard fails to load. */
export function useDashboard(role: Role) {
  const { data: user } = useQuery(profileQuery());
  const dashboard = useQuery(dashboardQuery(role));
  useErrorToast(dashboard.error, 'Failed to load dashboard data');
  return { userName: user?.name ?? '', dashboard };
}
