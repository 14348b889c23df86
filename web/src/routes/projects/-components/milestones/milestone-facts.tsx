import { Badge } from '../../../../components/ui/badge';
import { formatDate } from '../../../../lib/format';
import type { Milestone } from '../../../../lib/planning';

const today = () => new Date().toISOString().slice(0, 10);

/** Past its due date and still open. */
export const isMilestoneLate = (milestone: Milestone) =>
  !milestone.closedAt && !!milestone.dueDate && milestone.dueDate < today();

/** Open, Closed, or Late (open past its due date). */
export function MilestoneState({ milestone }: { milestone: Milestone }) {
  if (milestone.closedAt) return <Badge tone="green">Closed</Badge>;
  if (isMilestoneLate(milestone)) return <Badge tone="rose">Late</Badge>;
  return <Badge tone="violet">Open</Badge>;
}

/** "01 Jun 2026 – 30 Jun 2026", "Due 30 Jun 2026", or "No dates". */
export function milestoneDates(milestone: Milestone): string {
  const { startDate, dueDate } = milestone;
  if (startDate && dueDate) return `${formatDate(startDate)} – ${formatDate(dueDate)}`;
  if (dueDate) return `Due ${formatDate(dueDate)}`;
  if (startDate) return `From ${formatDate(startDate)}`;
  return 'No dates';
}
