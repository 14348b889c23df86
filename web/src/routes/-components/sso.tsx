import { type SsoErrorCode, ssoMessages } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { buttonClass } from '../../components/ui/button';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/** GET /api/auth/oidc: whether single sign-on is set up here, and the provider's name for the button. */
type SsoSetup = { enabled: boolean; name?: string };

export const ssoQuery = () => ({
  queryKey: queryKeys.site.sso,
  queryFn: () => api<SsoSetup>('/api/auth/oidc'),
  staleTime: 5 * 60_000,
  retry: false,
});

/** The text for a `sso_error` code the server sent the browser back with; anything else is ignored. */
export function ssoErrorText(code: unknown): string | null {
  return typeof code === 'string' && Object.hasOwn(ssoMessages, code) ? ssoMessages[code as SsoErrorCode] : null;
}

/**
 * "Sign in with <provider>" under the login form when single sign-on is set up: a plain
 * link, since the sign-in is a full-page trip to the provider and back (/sso). Nothing
 * shows when it is not set up, or while the server cannot be reached.
 */
export function SsoSignIn() {
  const { data } = useQuery(ssoQuery());
  if (!data?.enabled) return null;
  return (
    <div className="space-y-5">
      <div className="flex items-center gap-3 text-xs font-medium uppercase tracking-wide text-slate-500">
        <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
        or
        <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
      </div>
      <a href="/api/auth/oidc/start" className={buttonClass('secondary', 'lg', 'w-full')}>
        <KeyRound className="size-4" aria-hidden="true" />
        Sign in with {data.name}
      </a>
    </div>
  );
}
