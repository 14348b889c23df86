import { roles } from '@bugtrail/domain/vocabulary';
import { queryOptions } from '@tanstack/react-query';
import { api, getToken } from './api';
import type { Role, User } from './types';

export const roleHome: Record<
  Role,
  '/admin/dashboard' | '/tester/dashboard' | '/developer/dashboard' | '/auditor/dashboard'
> = {
  admin: '/admin/dashboard',
  tester: '/tester/dashboard',
  developer: '/developer/dashboard',
  auditor: '/auditor/dashboard',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

export const profileQuery = () =>
  queryOptions({
    queryKey: ['profile'],
    queryFn: async () => (await api<{ user: User }>('/api/auth/profile')).user,
    staleTime: 5 * 60_000,
    retry: false,
  });

/** Logout and 401 share this: storage and caches emptied, nothing of the old user left. */
export function clearSession() {
  try {
    localStorage.clear();
  } catch {
    // storage unavailable (private mode): nothing to clear
  }
}

export const hasToken = () => getToken() !== null;
