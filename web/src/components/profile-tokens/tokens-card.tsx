import {
  API_TOKEN_PREFIX,
  type ApiTokenDto,
  type ApiTokenScope,
  apiTokenLimits,
  apiTokenMessages,
  userMessages,
} from '@bugtrail/domain/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ApiError, api, messageOf } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { ConfirmModal } from '../confirm-modal';
import { SecretShownOnce } from '../copy-field';
import { PasswordField } from '../password-field';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { SelectField, TextField } from '../ui/field';
import { apiTokensQuery } from './tokens-api';

const scopeOptions: { value: ApiTokenScope; label: string }[] = [
  { value: 'read', label: 'Read only' },
  { value: 'write', label: 'Read and write' },
];
const expiryOptions = [7, 30, 90, 180, 366].map((days) => ({ value: String(days), label: `${days} days` }));

type Created = { token: ApiTokenDto; secret: string };
type Errors = Partial<Record<'name' | 'scope' | 'expiresInDays' | 'currentPassword' | 'form', string>>;

/**
 * Personal API tokens (api.md "Integrations"): create one for a script, copy its secret (shown
 * this once: the server keeps only a hash), see when each was last used, revoke one.
 */
export function TokensCard() {
  const queryClient = useQueryClient();
  const tokens = useQuery(apiTokensQuery());
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [expiresInDays, setExpiresInDays] = useState(String(apiTokenLimits.expiresInDaysDefault));
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<Created | null>(null);
  const [revoking, setRevoking] = useState<ApiTokenDto | null>(null);

  const create = useMutation({
    mutationFn: (body: { name: string; scope: ApiTokenScope; expiresInDays: number; currentPassword?: string }) =>
      api<Created>('/api/tokens', { method: 'POST', body }),
    onSuccess: (answer) => {
      setCreated(answer);
      setName('');
      setCurrentPassword('');
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile.apiTokens });
    },
    onError: (error) => {
      const next: Errors = {};
      if (error instanceof ApiError) {
        for (const detail of error.details) {
          const field = detail.field as keyof Errors;
          if (field in { name: 1, scope: 1, expiresInDays: 1, currentPassword: 1 } && !next[field])
            next[field] = detail.message;
        }
        // A wrong password is a 403 without details: it belongs beside the field.
        if (error.status === 403 && error.message === userMessages.currentPasswordIncorrect) {
          next.currentPassword = error.message;
          setCurrentPassword('');
        }
      }
      if (Object.keys(next).length === 0) next.form = messageOf(error, 'Could not create the token');
      setErrors(next);
      if (next.form) notify.error(next.form);
    },
  });

  const revoke = useMutation({
    mutationFn: (id: string) => api<null>(`/api/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_, id) => {
      setRevoking(null);
      if (created?.token._id === id) setCreated(null);
      notify.success('Token revoked');
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile.apiTokens });
    },
    onError: (error) => notify.error(messageOf(error, 'Could not revoke the token')),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setErrors({ name: apiTokenMessages.nameRequired });
    if (trimmed.length > apiTokenLimits.nameMax) return setErrors({ name: apiTokenMessages.nameTooLong });
    setErrors({});
    create.mutate({
      name: trimmed,
      scope,
      expiresInDays: Number(expiresInDays),
      ...(currentPassword ? { currentPassword } : {}),
    });
  };

  const list = tokens.data?.tokens ?? [];
  return (
    <Card>
      <CardHeader
        title="Tokens"
        subtitle="Personal API tokens let scripts and CI use Bugtrail as you. A token never changes your password, email, role or sign-in."
      />
      <div className="space-y-5 px-5 py-4">
        <form
          onSubmit={submit}
          noValidate
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_11rem_8rem] sm:items-start"
        >
          <TextField
            label="Token name"
            placeholder="e.g. nightly export"
            value={name}
            maxLength={apiTokenLimits.nameMax + 20}
            onChange={(event) => setName(event.target.value)}
            error={errors.name}
          />
          <SelectField
            label="Access"
            value={scope}
            options={scopeOptions}
            onChange={(event) => setScope(event.target.value as ApiTokenScope)}
            error={errors.scope}
          />
          <SelectField
            label="Expires after"
            value={expiresInDays}
            options={expiryOptions}
            onChange={(event) => setExpiresInDays(event.target.value)}
            error={errors.expiresInDays}
          />
          <div className="flex flex-col gap-3 sm:col-span-3 sm:flex-row sm:items-start">
            <PasswordField
              label="Current password"
              name="currentPassword"
              autoComplete="current-password"
              wrapperClassName="sm:w-72"
              hint="Not needed within 5 minutes of signing in."
              value={currentPassword}
              error={errors.currentPassword}
              onChange={(event) => {
                setCurrentPassword(event.target.value);
                setErrors((current) => ({ ...current, currentPassword: undefined }));
              }}
            />
            <Button
              type="submit"
              className="sm:mt-7"
              isLoading={create.isPending}
              icon={<KeyRound className="size-4" />}
            >
              Create token
            </Button>
          </div>
        </form>

        {created ? (
          <SecretShownOnce
            label="New token"
            value={created.secret}
            copiedMessage="Token copied"
            onDone={() => setCreated(null)}
          >
            <span className="font-semibold">Copy “{created.token.name}” now.</span> It is shown only this once; Bugtrail
            keeps just a fingerprint of it. Send it as{' '}
            <code className="font-mono">Authorization: Bearer {API_TOKEN_PREFIX}…</code>
          </SecretShownOnce>
        ) : null}

        {tokens.isError ? (
          <p className="text-sm text-rose-600">{messageOf(tokens.error, 'Could not load your tokens')}</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-500">{tokens.isPending ? 'Loading tokens…' : 'You have no tokens.'}</p>
        ) : (
          <ul aria-label="Your tokens" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {list.map((token) => (
              <li key={token._id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm">
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900">{token.name}</span>
                  <span className="block text-slate-500">
                    {token.scope === 'read' ? 'Read' : 'Write'} · expires {formatDate(token.expiresAt)} ·{' '}
                    {token.lastUsedAt ? `last used ${formatDateTime(token.lastUsedAt)}` : 'never used'}
                  </span>
                </span>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setRevoking(token)}
                  icon={<Trash2 className="size-4" />}
                  aria-label={`Revoke ${token.name}`}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmModal
        isOpen={revoking !== null}
        title="Revoke this token?"
        confirmLabel="Revoke"
        isBusy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking._id)}
        onClose={() => setRevoking(null)}
      >
        Scripts using “{revoking?.name}” stop working at once. This cannot be undone.
      </ConfirmModal>
    </Card>
  );
}
