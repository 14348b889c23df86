import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ChevronRight, Monitor, Moon, ShieldCheck, Sun } from 'lucide-react';
import { useId } from 'react';
import { PageHeader } from '../../components/page-header';
import { AccountCard } from '../../components/profile-account/account-card';
import { apiTokensQuery } from '../../components/profile-tokens/tokens-api';
import { TokensCard } from '../../components/profile-tokens/tokens-card';
import { Card, CardHeader } from '../../components/ui/card';
import { cx } from '../../components/ui/cx';
import { useUpdateEmailPreference } from '../../lib/mutations';
import { mailConfiguredQuery, profileQuery } from '../../lib/session';
import { setThemeChoice, type ThemeChoice, useTheme } from '../../lib/theme';
import type { EmailPreference } from '../../lib/types';

export const Route = createFileRoute('/profile/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(mailConfiguredQuery());
    void context.queryClient.prefetchQuery(apiTokensQuery());
  },
  component: ProfilePage,
});

function ProfilePage() {
  const { data: isMailConfigured } = useQuery(mailConfiguredQuery());
  return (
    <>
      <PageHeader
        title="Profile"
        subtitle="Your name, picture and password, how the app looks for you, what it emails you, your API tokens, and how your sign-in is protected."
      />
      <div className="grid max-w-3xl gap-6">
        <AccountCard />
        <Card>
          <CardHeader title="Appearance" subtitle="Applies at once, on this device." />
          <div className="px-5 py-4">
            <ThemeChoices />
          </div>
        </Card>
        {/* Mail choices only where mail is sent: without a mail server they would promise nothing. */}
        {isMailConfigured === true ? (
          <Card>
            <CardHeader
              title="Notifications"
              subtitle="Assignments, mentions, comments and due dates in your inbox. A choice is saved at once."
            />
            <div className="px-5 py-4">
              <EmailChoices />
            </div>
          </Card>
        ) : isMailConfigured === false ? (
          <Card>
            <CardHeader title="Notifications" />
            <p className="px-5 py-4 text-sm text-slate-600" data-testid="no-mail">
              This server sends no email. Your notifications are under the bell at the top of every page.
            </p>
          </Card>
        ) : null}
        <TokensCard />
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

const emailChoices: { value: EmailPreference; label: string; hint: string }[] = [
  { value: 'immediate', label: 'Right away', hint: 'One email for each notification, as it happens.' },
  { value: 'daily', label: 'Once a day, as a digest', hint: 'A single email a day with everything new.' },
  { value: 'off', label: 'Never', hint: 'No notification emails; the bell still shows them.' },
];

/**
 * How often notifications are mailed, from the profile's `preferences.email` ("immediate"
 * when the server sends none). A pick saves at once; a refusal puts the old one back.
 */
function EmailChoices() {
  const { data: user } = useQuery(profileQuery());
  const update = useUpdateEmailPreference(user?._id ?? '');
  const name = useId();
  const current = user?.preferences?.email ?? 'immediate';
  return (
    <fieldset disabled={!user}>
      <legend className="text-sm font-medium text-slate-700">Email me about notifications</legend>
      <div className="mt-2 grid max-w-md gap-2">
        {emailChoices.map(({ value, label, hint }) => {
          const isChecked = current === value;
          return (
            <label
              key={value}
              className={cx(
                'flex cursor-pointer items-start gap-3 rounded-lg border px-4 py-3 text-sm has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-500',
                isChecked ? 'border-brand-500 bg-brand-50' : 'border-slate-200 bg-white hover:bg-slate-50',
              )}
            >
              <input
                type="radio"
                name={name}
                value={value}
                checked={isChecked}
                onChange={() => update.mutate(value)}
                aria-labelledby={`${name}-${value}-label`}
                aria-describedby={`${name}-${value}-hint`}
                className="sr-only"
              />
              {/* The dot the hidden radio would draw, in the app's palette (both themes). */}
              <span
                aria-hidden="true"
                className={cx(
                  'mt-0.5 flex size-4 shrink-0 items-center justify-center rounded-full border',
                  isChecked ? 'border-brand-600 bg-brand-600' : 'border-slate-400 bg-white',
                )}
              >
                {isChecked ? <span className="size-1.5 rounded-full bg-white" /> : null}
              </span>
              <span className="min-w-0">
                <span
                  id={`${name}-${value}-label`}
                  className={cx('block font-medium', isChecked ? 'text-brand-700' : 'text-slate-900')}
                >
                  {label}
                </span>
                <span id={`${name}-${value}-hint`} className="block text-slate-600">
                  {hint}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
