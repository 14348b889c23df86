import { toast } from 'sonner';
import { ApiError, messageOf } from './api';
import { notify } from './notify';

/** Long enough to read the blockers' names and reach for the button. */
const OVERRIDE_TOAST_MS = 10_000;

/** Closing a bug that an open bug blocks: 409 "Blocked by WEB-3: close it first" (api.md "Relations and sub-bugs"). */
export function isBlockedRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && /^Blocked by /.test(error.message);
}

/**
 * Says why a status change was refused, in the server's words. A refused close of a blocked bug
 * offers an admin "Close anyway", which sends it again with `override: true`.
 */
export function notifyStatusRefusal(
  error: unknown,
  { fallback, isAdmin, onOverride }: { fallback: string; isAdmin: boolean; onOverride?: (() => void) | undefined },
) {
  if (isBlockedRefusal(error) && isAdmin && onOverride) {
    toast.error(error.message, {
      duration: OVERRIDE_TOAST_MS,
      action: { label: 'Close anyway', onClick: onOverride },
    });
    return;
  }
  notify.error(messageOf(error, fallback));
}
