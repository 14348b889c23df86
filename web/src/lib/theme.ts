import { useSyncExternalStore } from 'react';

/**
 * Light or dark: the user's stored choice, else the system's preference, followed live.
 * The class `light` or `dark` on <html> picks the palette (styles.css); `startTheme()`
 * runs before React renders (main.tsx), so a dark page never flashes light.
 */
export type ThemeChoice = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'theme';
const SYSTEM_DARK = '(prefers-color-scheme: dark)';

type ThemeState = { choice: ThemeChoice; theme: Theme };

const listeners = new Set<() => void>();
let choice: ThemeChoice = 'system';
let systemTheme: Theme = 'light';
// One object per change, so useSyncExternalStore sees a new snapshot exactly then.
let state: ThemeState = { choice, theme: systemTheme };

function readStoredChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

function apply() {
  const theme = choice === 'system' ? systemTheme : choice;
  state = { choice, theme };
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  for (const listener of listeners) listener();
}

let isStarted = false;

/** Applies the theme now and keeps following the system and other tabs. Idempotent. */
export function startTheme() {
  if (isStarted) return;
  isStarted = true;
  const media = window.matchMedia(SYSTEM_DARK);
  systemTheme = media.matches ? 'dark' : 'light';
  choice = readStoredChoice();
  apply();
  media.addEventListener('change', (event) => {
    systemTheme = event.matches ? 'dark' : 'light';
    apply();
  });
  // A choice made in another tab. A cleared storage (a logout, key null) keeps this tab as it is.
  window.addEventListener('storage', (event) => {
    if (event.key !== THEME_KEY) return;
    choice = readStoredChoice();
    apply();
  });
}

export function setThemeChoice(next: ThemeChoice) {
  choice = next;
  try {
    if (next === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, next);
  } catch {
    // storage unavailable (private mode): the choice lasts for this page
  }
  apply();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => state;

/** The stored choice and the theme it resolves to, re-rendering on every change. */
export function useTheme(): ThemeState {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
