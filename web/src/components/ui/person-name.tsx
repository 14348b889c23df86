import { useQuery } from '@tanstack/react-query';
import { developersQuery, teamQuery } from '../../lib/queries';
import { profileQuery } from '../../lib/session';
import { cx } from './cx';

/**
 * A person as every picker names them (issue 40): the name and, beside it, the email, so two
 * people with one name are told apart. The email stays visible at every width (it truncates).
 */
export function PersonName({
  name,
  email,
  className,
}: {
  name: string;
  email?: string | null | undefined;
  className?: string;
}) {
  return (
    <span className={cx('flex min-w-0 flex-1 flex-col sm:flex-row sm:items-baseline sm:gap-2', className)}>
      <span className="truncate font-medium text-slate-800">{name}</span>
      {email ? <span className="truncate text-xs text-slate-600">{email}</span> : null}
    </span>
  );
}

/** A person in a native `<option>` (text only): "Name (email)" when the email is known. */
export function personOptionText(person: { name: string; email?: string | null | undefined }): string {
  return person.email ? `${person.name} (${person.email})` : person.name;
}

/**
 * The emails the signed-in user may read (api.md "People": admins and auditors read the team's,
 * admins and testers the developers'), by id: for pickers fed by a directory without them.
 */
export function useKnownEmails(): ReadonlyMap<string, string> {
  const profile = useQuery(profileQuery());
  const role = profile.data?.role;
  const readsTeam = role === 'admin' || role === 'auditor';
  const team = useQuery({ ...teamQuery(), enabled: readsTeam, staleTime: 60_000 });
  const developers = useQuery({
    ...developersQuery(),
    enabled: role === 'admin' || role === 'tester' || role === 'auditor',
    staleTime: 60_000,
  });
  const emails = new Map<string, string>();
  for (const person of [...(developers.data ?? []), ...(team.data ?? [])]) {
    if (person.email) emails.set(person._id, person.email);
  }
  if (profile.data?.email) emails.set(profile.data._id, profile.data.email);
  return emails;
}
