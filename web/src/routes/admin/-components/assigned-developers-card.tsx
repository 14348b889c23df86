import { UserPlus } from 'lucide-react';
import { AvatarStack } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import type { UserRef } from '../../../lib/types';

/**
 * The admin form's Assigned Developers: who is assigned in the form (saved with it), the
 * form's error about them, and the button that opens the dialog to choose.
 */
export function AssignedDevelopersCard({
  assigned,
  error,
  onAssign,
}: {
  assigned: UserRef[];
  error: string | undefined;
  onAssign: () => void;
}) {
  return (
    <Card>
      <CardHeader title="Assigned Developers" />
      <div className="space-y-4 p-5">
        {assigned.length > 0 ? (
          <div className="flex items-center gap-3">
            <AvatarStack users={assigned} max={3} />
            <p className="min-w-0 truncate text-sm text-slate-600">{assigned.map((u) => u.name).join(', ')}</p>
          </div>
        ) : (
          <p className="text-sm text-slate-500">Unassigned</p>
        )}
        {error ? (
          <p role="alert" className="text-sm text-rose-600">
            {error}
          </p>
        ) : null}
        <Button variant="outline" className="w-full" icon={<UserPlus className="size-4" />} onClick={onAssign}>
          Assign Developers
        </Button>
      </div>
    </Card>
  );
}
