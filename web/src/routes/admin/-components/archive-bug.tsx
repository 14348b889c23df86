import { Archive, ArchiveRestore } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { messageOf } from '../../../lib/api';
import { useArchiveBug } from '../../../lib/mutations';
import { notify } from '../../../lib/notify';
import type { Bug } from '../../../lib/types';
import { type OwnSave, savedFrom } from './admin-bug-extras';

/**
 * Archive a closed bug, or restore an archived one (admins): an archived bug leaves the lists,
 * counts and dashboards and keeps its page. Reopening it brings it back too. `onSaved` hands
 * the form the new version, so the page's own change is not taken for someone else's.
 */
export function ArchiveBugControl({ bug, onSaved }: { bug: Bug; onSaved: (save: OwnSave) => void }) {
  const archive = useArchiveBug(bug._id);
  if (!bug.archived && bug.status !== 'Closed') return null;
  const run = async () => {
    try {
      const answer = await archive.mutateAsync(!bug.archived);
      savedFrom(bug, onSaved)(answer);
      notify.success(answer?.message ?? (bug.archived ? 'Bug restored' : 'Bug archived'));
    } catch (error) {
      notify.error(messageOf(error, bug.archived ? 'Failed to restore bug' : 'Failed to archive bug'));
    }
  };
  return (
    <div className="flex shrink-0 items-center gap-3">
      {bug.archived ? <Badge tone="amber">Archived</Badge> : null}
      <Button
        variant="outline"
        isLoading={archive.isPending}
        icon={bug.archived ? <ArchiveRestore className="size-4" /> : <Archive className="size-4" />}
        onClick={() => void run()}
      >
        {bug.archived ? 'Restore' : 'Archive'}
      </Button>
    </div>
  );
}
