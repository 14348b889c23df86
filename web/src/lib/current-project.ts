/**
 * The project a person works in now (issue 35: the sidebar's switcher), kept in this browser
 * so it survives a reload: the project page sets it, the sidebar marks it, and the report form
 * starts in it. Only a key is kept; a project no longer shown is simply not current.
 */
const STORAGE_KEY = 'bugtrail.currentProject';
const listeners = new Set<() => void>();

export function currentProjectKey(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function setCurrentProjectKey(key: string): void {
  try {
    if (localStorage.getItem(STORAGE_KEY) === key) return;
    localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Private mode or storage full: the choice lasts as long as the page.
  }
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: told when the current project changes in this tab. */
export function subscribeCurrentProject(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
