import { Moon, Sun } from 'lucide-react';
import { setThemeChoice, useTheme } from '../lib/theme';
import { cx } from './ui/cx';

/**
 * The header's switch between light and dark: named "Theme: dark" (what is shown), it
 * turns the other theme on at once and stores the choice. Following the system again is
 * on the profile page.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const Icon = theme === 'dark' ? Moon : Sun;
  return (
    <button
      type="button"
      onClick={() => setThemeChoice(next)}
      aria-label={`Theme: ${theme}`}
      title={`Switch to the ${next} theme`}
      className={cx(
        'inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900',
        className,
      )}
    >
      <Icon className="size-5" aria-hidden="true" />
    </button>
  );
}
