import { createFileRoute, Link } from '@tanstack/react-router';
import { ChevronRight, Monitor, Moon, ShieldCheck, Sun } from 'lucide-react';
import { useId } from 'react';
import { PageHeader } from '../../components/page-header';
import { Card, CardHeader } from '../../components/ui/card';
import { cx } from '../../components/ui/cx';
import { setThemeChoice, type ThemeChoice, useTheme } from '../../lib/theme';

export const Route = createFileRoute('/profile/')({ component: ProfilePage });

function ProfilePage() {
  return (
    <>
      <PageHeader title="Profile" subtitle="How the app looks for you, and how your account is protected." />
      <div className="grid max-w-3xl gap-6">
        <Card>
          <CardHeader title="Appearance" subtitle="Applies at once, on this device." />
          <div className="px-5 py-4">
            <ThemeChoices />
          </div>
        </Card>
        <Card>
          <Link
            to="/profile/security"
            className="flex items-center gap-3 rounded-xl px-5 py-4 text-sm hover:bg-slate-50"
          >
            <ShieldCheck className="size-5 text-brand-600" aria-hidden="true" />
            <span className="min-w-0 flex-1">
              <span className="block font-semibold text-slate-900">Security</span>
              <span className="block text-slate-500">Two-factor authentication and recovery codes.</span>
            </span>
            <ChevronRight className="size-4 text-slate-400" aria-hidden="true" />
          </Link>
        </Card>
      </div>
    </>
  );
}

const choices: { value: ThemeChoice; label: string; icon: typeof Sun }[] = [
  { value: 'system', label: 'System', icon: Monitor },
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
];

/** System, Light or Dark as a radio group named "Theme"; a pick applies at once (the header's toggle only flips). */
function ThemeChoices() {
  const { choice } = useTheme();
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Theme</legend>
      <div className="mt-2 grid max-w-md grid-cols-3 gap-2">
        {choices.map(({ value, label, icon: Icon }) => (
          <label
            key={value}
            className={cx(
              'flex cursor-pointer flex-col items-center gap-1.5 rounded-lg border px-3 py-3 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-500',
              choice === value
                ? 'border-brand-500 bg-brand-50 text-brand-700'
                : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-50',
            )}
          >
            <input
              type="radio"
              name={name}
              value={value}
              checked={choice === value}
              onChange={() => setThemeChoice(value)}
              className="sr-only"
            />
            <Icon className="size-5" aria-hidden="true" />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
