import { userMessages } from '@bugtrail/domain/vocabulary';
import { createFileRoute } from '@tanstack/react-router';
import { QrCode as QrIcon, ShieldCheck, ShieldOff } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { PasswordField } from '../../components/password-field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { ApiError, messageOf } from '../../lib/api';
import { notify } from '../../lib/notify';
import { mfaServerMessages, recalledMfa, rememberMfa } from '../-components/mfa';
import { type MfaSetup, useBeginMfaSetup } from './-components/mfa-api';
import { MfaDisableForm } from './-components/mfa-disable';
import { MfaSetupPanel } from './-components/mfa-setup';
import { RecoveryCodes } from './-components/recovery-codes';

export const Route = createFileRoute('/profile/security')({ component: SecurityPage });

type View =
  | { kind: 'off' }
  | { kind: 'setup'; setup: MfaSetup }
  | { kind: 'codes'; recoveryCodes: string[] }
  | { kind: 'on' };

function SecurityPage() {
  const [view, setView] = useState<View>(() => (recalledMfa() ? { kind: 'on' } : { kind: 'off' }));
  const beginSetup = useBeginMfaSetup();
  const isOn = view.kind === 'on' || view.kind === 'codes';

  const turnedOn = () => {
    rememberMfa(true);
    setView({ kind: 'on' });
  };
  const turnedOff = () => {
    rememberMfa(false);
    setView({ kind: 'off' });
  };

  const [currentPassword, setCurrentPassword] = useState('');
  const [passwordError, setPasswordError] = useState('');

  // The password goes along even when empty: someone who signs in only through single sign-on
  // has none, and a sign-in within the last 5 minutes is their proof instead.
  const start = (event: FormEvent) => {
    event.preventDefault();
    beginSetup.mutate(currentPassword, {
      onSuccess: (setup) => {
        setCurrentPassword('');
        setPasswordError('');
        setView({ kind: 'setup', setup });
      },
      onError: (failure) => {
        const message = messageOf(failure, 'Could not start the setup. Please try again');
        if (message === userMessages.currentPasswordRequired || message === userMessages.currentPasswordIncorrect) {
          setPasswordError(message);
          setCurrentPassword('');
          return;
        }
        // Turned on elsewhere (another device): show it as it is.
        if (failure instanceof ApiError && failure.status === 409 && message === mfaServerMessages.alreadyEnabled) {
          turnedOn();
        }
        notify.error(message);
      },
    });
  };

  return (
    <>
      <PageHeader title="Security" subtitle="Protect your account with a second step when you sign in." />
      <Card className="max-w-3xl">
        <CardHeader
          title="Two-factor authentication"
          subtitle="A code from an authenticator app, asked for after your password."
          action={
            <Badge tone={isOn ? 'green' : 'slate'}>
              <span className="size-1.5 rounded-full bg-current" aria-hidden="true" />
              {isOn ? 'On' : 'Off'}
            </Badge>
          }
        />
        <div className="p-5">
          {view.kind === 'off' ? (
            <div className="space-y-5">
              <div className="flex items-center gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-600">
                  <ShieldCheck className="size-5" />
                </span>
                <p className="text-sm leading-6 text-slate-600">
                  Even if someone learns your password, they can't sign in without the 6-digit code your phone shows.
                  You'll also get recovery codes for the day you lose it.
                </p>
              </div>
              <form onSubmit={start} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
                <PasswordField
                  label="Current password"
                  name="currentPassword"
                  autoComplete="current-password"
                  wrapperClassName="sm:w-72"
                  hint="Confirms it is you before a new sign-in step is added."
                  value={currentPassword}
                  error={passwordError}
                  onChange={(event) => {
                    setCurrentPassword(event.target.value);
                    setPasswordError('');
                  }}
                />
                <Button
                  type="submit"
                  className="sm:mt-7"
                  isLoading={beginSetup.isPending}
                  icon={<QrIcon className="size-4" />}
                >
                  Set up authenticator app
                </Button>
              </form>
            </div>
          ) : view.kind === 'setup' ? (
            <MfaSetupPanel
              setup={view.setup}
              onEnabled={(recoveryCodes) => {
                rememberMfa(true);
                setView({ kind: 'codes', recoveryCodes });
              }}
              onCancel={() => setView({ kind: 'off' })}
              onAlreadyEnabled={() => {
                notify.error(mfaServerMessages.alreadyEnabled);
                turnedOn();
              }}
            />
          ) : view.kind === 'codes' ? (
            <RecoveryCodes codes={view.recoveryCodes} onDone={() => setView({ kind: 'on' })} />
          ) : (
            <div className="space-y-6">
              <div className="flex items-center gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-lime-50 text-lime-700">
                  <ShieldCheck className="size-5" />
                </span>
                <p className="text-sm leading-6 text-slate-600">
                  Signing in asks for a code from your authenticator app, or one of your recovery codes.
                </p>
              </div>
              <section aria-labelledby="mfa-off-heading" className="space-y-4 border-t border-slate-100 pt-5">
                <div>
                  <h3 id="mfa-off-heading" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
                    <ShieldOff className="size-4 text-rose-500" />
                    Turn off two-factor authentication
                  </h3>
                  <p className="mt-1 text-sm text-slate-600">Confirm with a current code and your password.</p>
                </div>
                <MfaDisableForm
                  onDisabled={() => {
                    notify.success('Two-factor authentication is off');
                    turnedOff();
                  }}
                  onNotEnabled={() => {
                    notify.error(mfaServerMessages.notEnabled);
                    turnedOff();
                  }}
                />
              </section>
            </div>
          )}
        </div>
      </Card>
    </>
  );
}
