import { roleDisplayNames, signupRoles, validateRegistration } from '@bugtrail/domain/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { PasswordField } from '../components/password-field';
import { Button } from '../components/ui/button';
import { SelectField, TextField } from '../components/ui/field';
import { ApiError, api, NO_RESPONSE, setToken, TIMED_OUT } from '../lib/api';
import { notify } from '../lib/notify';
import { queryKeys } from '../lib/query-keys';
import { isRole, roleHome, signupPolicyQuery } from '../lib/session';
import type { AuthAnswer } from '../lib/types';
import { AuthLayout } from './-components/auth-layout';
import { ProfilePhotoField } from './-components/profile-photo-field';

/** An invitation link: `/signup?invite=<code>&role=tester|developer` (issue 40). */
type SignupSearch = { invite?: string; role?: 'tester' | 'developer' };

export const Route = createFileRoute('/signup')({
  // Whether sign-up is open or by invitation decides which fields the form shows.
  loader: ({ context }) => void context.queryClient.prefetchQuery({ ...signupPolicyQuery(), staleTime: 30_000 }),
  component: SignupPage,
  validateSearch: (search: Record<string, unknown>): SignupSearch => ({
    ...(typeof search.invite === 'string' || typeof search.invite === 'number'
      ? { invite: String(search.invite).slice(0, 100) }
      : {}),
    ...(search.role === 'tester' || search.role === 'developer' ? { role: search.role } : {}),
  }),
});

type Field = 'name' | 'email' | 'password' | 'adminInviteToken' | 'inviteCode';
const invitationRequired = 'Please enter the invitation code an admin gave you';
const roleOptions = signupRoles.map((role) => ({ value: role, label: roleDisplayNames[role] }));

const signupTexts = {
  missingToken: 'Invalid response from server. Missing token.',
  noResponse: 'No response from server. Please check your connection.',
  fallback: 'Something went wrong. Please try again',
};

function signupFailure(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.hasServerMessage) return error.message;
    if (error.status === NO_RESPONSE || error.status === TIMED_OUT) return signupTexts.noResponse;
    return `Server error: ${error.status}`;
  }
  if (error instanceof Error && error.message === signupTexts.missingToken) return error.message;
  return signupTexts.fallback;
}

function SignupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invitation = Route.useSearch();
  // Who may sign up: by invitation, a tester or developer brings the code of their link.
  const policy = useQuery({ ...signupPolicyQuery(), staleTime: 30_000 });
  const [form, setForm] = useState({
    name: '',
    email: '',
    password: '',
    role: (invitation.role ?? 'tester') as string,
    adminInviteToken: '',
    inviteCode: invitation.invite ?? '',
  });
  const needsInvitation = policy.data === 'invitation' && form.role !== 'admin';
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState('');
  const [isSubmitting, setSubmitting] = useState(false);
  const [photo, setPhoto] = useState<File | null>(null);

  const update = (field: keyof typeof form, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const issues = validateRegistration(form);
    const next: Partial<Record<Field, string>> = {};
    for (const issue of issues) next[issue.field as Field] ??= issue.message;
    if (needsInvitation && !form.inviteCode.trim()) next.inviteCode = invitationRequired;
    setErrors(next);
    setFormError('');
    if (Object.keys(next).length > 0) return;
    setSubmitting(true);
    try {
      let profileImageURL = '';
      if (photo) {
        const data = new FormData();
        data.append('image', photo);
        profileImageURL = (await api<{ imageURL: string }>('/api/auth/upload-image', { method: 'POST', form: data }))
          .imageURL;
      }
      const answer = await api<AuthAnswer>('/api/auth/register', {
        method: 'POST',
        body: {
          name: form.name.trim(),
          email: form.email.trim(),
          password: form.password,
          role: form.role,
          profileImageURL,
          ...(form.role === 'admin' ? { adminInviteToken: form.adminInviteToken.trim() } : {}),
          ...(form.role !== 'admin' && form.inviteCode.trim() ? { inviteCode: form.inviteCode.trim() } : {}),
        },
      });
      if (!answer?.token) throw new Error(signupTexts.missingToken);
      setToken(answer.token);
      if (answer.user) queryClient.setQueryData(queryKeys.profile.self, answer.user);
      const role = answer.role ?? answer.user?.role;
      await navigate({ to: isRole(role) ? roleHome[role] : '/' });
    } catch (error) {
      const message = signupFailure(error);
      setFormError(message);
      notify.error(message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title="Create an Account" subtitle="Join us today by entering your details below.">
      <form onSubmit={submit} noValidate className="space-y-5">
        {needsInvitation ? (
          <p role="note" className="rounded-lg border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-brand-900">
            Sign-up here is by invitation: use the link or the code an admin gave you.
          </p>
        ) : null}
        {formError ? (
          <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
            {formError}
          </div>
        ) : null}
        <ProfilePhotoField photo={photo} onChange={setPhoto} />
        <TextField
          label="Full Name"
          name="name"
          autoComplete="name"
          placeholder="John Doe"
          value={form.name}
          error={errors.name}
          onChange={(event) => update('name', event.target.value)}
        />
        <TextField
          label="Email Address"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="john@example.com"
          value={form.email}
          error={errors.email}
          onChange={(event) => update('email', event.target.value)}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          placeholder="Min 8 characters"
          value={form.password}
          error={errors.password}
          onChange={(event) => update('password', event.target.value)}
        />
        <SelectField
          label="Select Role"
          name="role"
          value={form.role}
          options={roleOptions}
          onChange={(event) => update('role', event.target.value)}
        />
        {form.role === 'admin' ? (
          <TextField
            label="Admin Invite Token"
            name="adminInviteToken"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="6 Digit Code"
            value={form.adminInviteToken}
            error={errors.adminInviteToken}
            onChange={(event) => update('adminInviteToken', event.target.value)}
          />
        ) : null}
        {needsInvitation ? (
          <TextField
            label="Invitation Code"
            name="inviteCode"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="6 Digit Code"
            value={form.inviteCode}
            error={errors.inviteCode}
            onChange={(event) => update('inviteCode', event.target.value)}
          />
        ) : null}
        <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting}>
          Sign Up
        </Button>
        <p className="text-center text-sm text-slate-600">
          Already have an account?{' '}
          <Link to="/login" className="font-semibold text-brand-700 hover:underline">
            Login
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
