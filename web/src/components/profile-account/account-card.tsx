import { useQuery } from '@tanstack/react-query';
import { profileQuery } from '../../lib/session';
import { Card, CardHeader } from '../ui/card';
import { AccountDetailsForm } from './account-details-form';
import { PasswordForm } from './password-form';
import { ProfilePicture } from './profile-picture';

/**
 * The profile's "Account" card (issue 15): picture, name and email, password. Each part
 * saves on its own through PUT /api/users/{id}; the header shows a change at once.
 */
export function AccountCard() {
  const { data: user } = useQuery(profileQuery());
  return (
    <Card>
      <CardHeader title="Account" subtitle="Your picture, name, email and password." />
      {user ? (
        <div className="divide-y divide-slate-100">
          <ProfilePicture user={user} />
          <AccountDetailsForm key={user._id} user={user} />
          <PasswordForm key={user._id} user={user} />
        </div>
      ) : null}
    </Card>
  );
}
