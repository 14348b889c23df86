/**
 * The last answer seen for each GET the app reads, kept in Cache Storage so that with no
 * network (or the server out of reach) a page shows what the user saw last. Network first:
 * a live answer always wins and replaces the saved one.
 *
 * The page keeps these itself rather than the service worker (which keeps only the app
 * shell): every API request stays the page's own, so request interception, the CSP's
 * connect-src and errors behave exactly as without a worker, and api.ts knows when an
 * answer is a saved copy (the offline banner says so).
 */
const CACHE_NAME = 'bugtrail-answers-v1';

/** Bumped by clearSavedAnswers, so an answer still on its way in is not saved for the next user. */
let generation = 0;

const isAvailable = () => typeof caches !== 'undefined';

/**
 * JSON reads worth showing offline. Never the live stream, credentials (only the profile,
 * which opening the app needs), exports or the audit export stream.
 */
export function isSavable(path: string): boolean {
  const pathname = path.split('?')[0] ?? path;
  if (!pathname.startsWith('/api/')) return false;
  if (pathname === '/api/events' || pathname.startsWith('/api/events/')) return false;
  if (pathname.startsWith('/api/auth/')) return pathname === '/api/auth/profile';
  if (pathname.startsWith('/api/reports/export')) return false;
  if (pathname.startsWith('/api/audit/events')) return false;
  return true;
}

const keyFor = (path: string) => new URL(path, window.location.origin).href;

/** Keeps a successful JSON answer (a copy the caller does not read: api.ts clones it). */
export function saveAnswer(path: string, copy: Response): void {
  if (!isAvailable() || !isSavable(path)) return;
  if (!(copy.headers.get('content-type') ?? '').includes('json')) return;
  const startedIn = generation;
  void (async () => {
    try {
      const cache = await caches.open(CACHE_NAME);
      if (startedIn !== generation) return;
      await cache.put(keyFor(path), copy);
    } catch {
      // storage full or unavailable: the answer is simply not kept
    }
  })();
}

/** The last answer saved for this GET, or null. */
export async function readSavedAnswer(path: string): Promise<Response | null> {
  if (!isAvailable() || !isSavable(path)) return null;
  try {
    const cache = await caches.open(CACHE_NAME);
    return (await cache.match(keyFor(path), { ignoreVary: true })) ?? null;
  } catch {
    return null;
  }
}

/** Logout and 401: nothing of the old user stays readable. */
export async function clearSavedAnswers(): Promise<void> {
  generation += 1;
  if (!isAvailable()) return;
  try {
    await caches.delete(CACHE_NAME);
  } catch {
    // nothing to clear
  }
}

export const SAVED_ANSWERS_CACHE = CACHE_NAME;
