import { compact, pickOne, type TeamTab, teamTabs } from '../lib/search';
import type { StatusSummary } from '../lib/types';
import { Tabs } from './ui/tabs';

/** The count of each team tab ('' = all), from a list's statusSummary in any of its spellings. */
export function teamTabCounts(summary: StatusSummary | undefined): Record<string, number> {
  return {
    '': summary?.all ?? 0,
    Pending: summary?.pendingBugs ?? summary?.openBugs ?? summary?.open ?? 0,
    'In Progress': summary?.inProgressBugs ?? summary?.inProgress ?? 0,
    Resolved: summary?.resolvedBugs ?? summary?.closedBugs ?? summary?.closed ?? 0,
  };
}

/** All / Pending / In Progress / Resolved with counts; nothing while there are no bugs at all. */
export function TeamStatusTabs({
  status,
  counts,
  onChange,
}: {
  status: TeamTab | undefined;
  counts: Record<string, number>;
  onChange: (search: { status?: TeamTab }) => void;
}) {
  if ((counts[''] ?? 0) === 0) return null;
  return (
    <div className="mb-6">
      <Tabs
        label="Filter by status"
        value={status ?? ''}
        onChange={(value) => onChange(compact({ status: pickOne(value, teamTabs) }))}
        tabs={[
          { value: '', label: 'All', count: counts[''] },
          ...teamTabs.map((tab) => ({ value: tab, label: tab, count: counts[tab] ?? 0 })),
        ]}
      />
    </div>
  );
}
