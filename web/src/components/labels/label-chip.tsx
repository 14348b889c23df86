import { labelColor, labelTextColor } from '../../lib/label-colors';
import type { LabelRef } from '../../lib/types';
import { cx } from '../ui/cx';

/**
 * One label, in its own colour with the text colour that reads on it (lib/label-colors.ts).
 * Drawn the same in both themes: the colour is the label's, not the palette's.
 */
export function LabelChip({ label, className }: { label: Pick<LabelRef, 'name' | 'color'>; className?: string }) {
  const background = labelColor(label.color);
  return (
    <span
      className={cx(
        'inline-flex max-w-full min-w-0 items-center rounded-full px-2 py-0.5 text-xs leading-4 font-medium ring-1 ring-black/10 ring-inset',
        className,
      )}
      style={{ backgroundColor: background, color: labelTextColor(background) }}
      title={label.name}
    >
      <span className="truncate">{label.name}</span>
    </span>
  );
}

/** A bug's labels, or nothing when it has none; named as a list for screen readers. */
export function LabelChips({
  labels,
  className,
  max,
}: {
  labels: readonly LabelRef[] | null | undefined;
  className?: string;
  /** Show at most this many, then "+N". */
  max?: number;
}) {
  const all = labels ?? [];
  if (all.length === 0) return null;
  const shown = max === undefined ? all : all.slice(0, max);
  const rest = all.length - shown.length;
  return (
    <ul aria-label="Labels" className={cx('flex min-w-0 flex-wrap gap-1', className)}>
      {shown.map((label) => (
        <li key={label._id} className="min-w-0 max-w-full">
          <LabelChip label={label} />
        </li>
      ))}
      {rest > 0 ? (
        <li
          className="text-xs font-medium text-slate-500"
          title={all
            .slice(shown.length)
            .map((l) => l.name)
            .join(', ')}
        >
          +{rest}
        </li>
      ) : null}
    </ul>
  );
}
