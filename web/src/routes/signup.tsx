import { roleDisplayNames, signupRoles, validateRegistration } from '@bugtrail/domain/vocabulary';
import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Camera, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { PasswordField } from '../components/password-field';
import { Button } from '../components/ui/button';
import { SelectField, TextField } from '../components/ui/field';
import { ApiError, api, NO_RESPONSE, setToken, TIMED_OUT } from '../lib/api';
import { notify } from '../lib/notify';
import { isRole, roleHome } from '../lib/session';
import type { AuthAnswer } from '../lib/types';
import { AuthLayout } from './-components/auth-layout';

export const Route = createFileRoute('/signup')({ component: SignupPage });

type Field = 'name' | 'email' | 'password' | 'adminInviteToken';
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
  const [form, setForm] = useState({ name: '', email: '', password: '', role: 'tester', adminInviteToken: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState('');
  const [isSubmitting, setSubmitting] = useState(false);
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!photo) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  const update = (field: keyof typeof form, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const issues = validateRegistration(form);
    const next: Partial<Record<Field, string>> = {};
    for (const issue of issues) next[issue.field as Field] ??= issue.message;
    setErrors(next);
    setFormError('');
    if (issues.length > 0) return;
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
        },
      });
      if (!answer?.token) throw new Error(signupTexts.missingToken);
      setToken(answer.token);
      if (answer.user) queryClient.setQueryData(['profile'], answer.user);
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
        {formError ? (
          <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
            {formError}
          </div>
        ) : null}
        <div className="flex items-center gap-4">
          <div className="relative">
            {preview ? (
              <img
                src={preview}
                alt="Profile preview"
                className="size-16 rounded-full object-cover ring-2 ring-brand-100"
              />
            ) : (
              <span className="flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-600 ring-2 ring-brand-100">
                <Camera className="size-6" aria-hidden="true" />
              </span>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <input
              ref={fileInput}
              id="profile-photo"
              type="file"
              accept="image/*"
              className="sr-only"
              onChange={(event) => {
                const file = event.target.files?.[0] ?? null;
                if (file && !file.type.startsWith('image/')) {
                  notify.error('Please choose an image file');
                  event.target.value = '';
                  return;
                }
                setPhoto(file);
              }}
            />
            <label
              htmlFor="profile-photo"
              className="cursor-pointer rounded-lg px-3 py-1.5 text-sm font-medium text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50"
            >
              {photo ? 'Change photo' : 'Upload photo'}
            </label>
            {photo ? (
              <Button
                variant="ghost"
                size="sm"
                icon={<Trash2 className="size-4" />}
                onClick={() => {
                  setPhoto(null);
                  if (fileInput.current) fileInput.current.value = '';
                }}
              >
                Remove
              </Button>
            ) : (
              <span className="text-xs text-slate-500">Optional · JPG, PNG, WebP or GIF</span>
            )}
          </div>
        </div>
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
