import { type Role, type SuggestionKind, statusDisplayName, type TriageSuggestions } from '@bugtrail/domain/vocabulary';
import { Check, Copy, Lightbulb, UserPlus } from 'lucide-react';
import { useEffect, useId } from 'react';
import type { BugFormValues } from '../../lib/bug-form';
import { Button } from '../ui/button';
import { useKnownEmails } from '../ui/person-name';
import type { SuggestionTracker } from './suggestion-usage';
import { useTriageSuggestions } from './triage-query';

type Props = {
  values: BugFormValues;
  apply: (patch: Partial<BugFormValues>) => void;
  tracker: SuggestionTracker;
  /** The page of a bug, for the likely duplicates' links. */
  bugLink: (id: string) => string;
  /** Whose words the statuses are shown in. */
  viewAs: Role;
};

const kindsIn = (s: TriageSuggestions): SuggestionKind[] => [
  ...(s.duplicates.length > 0 ? (['duplicates'] as const) : []),
  ...(s.severity ? (['severity'] as const) : []),
  ...(s.priority ? (['priority'] as const) : []),
  ...(s.assignees.length > 0 ? (['assignees'] as const) : []),
];

/** One sentence for screen readers when the suggestions change (the region is polite). */
function summaryOf(s: TriageSuggestions): string {
  const parts = [
    s.duplicates.length > 0
      ? `${s.duplicates.length} likely duplicate${s.duplicates.length === 1 ? '' : 's'}`
      : 'no likely duplicates',
    ...(s.severity ? [`severity ${s.severity.value}`] : []),
    ...(s.priority ? [`priority ${s.priority.value}`] : []),
    ...(s.assignees.length > 0 ? [`${s.assignees.length} developer${s.assignees.length === 1 ? '' : 's'}`] : []),
  ];
  return `Suggestions: ${parts.join(', ')}.`;
}

function ValueRow({
  label,
  value,
  reason,
  isApplied,
  onApply,
}: {
  label: 'Severity' | 'Priority';
  value: string;
  reason: string;
  isApplied: boolean;
  onApply: () => void;
}) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
      <div className="min-w-0 flex-1">
        <p className="text-sm text-slate-800">
          {label}: <span className="font-semibold">{value}</span>
        </p>
        <p className="text-xs break-words text-slate-600">{reason}</p>
      </div>
      <Button
        size="sm"
        variant={isApplied ? 'ghost' : 'outline'}
        disabled={isApplied}
        onClick={onApply}
        // Named by the value alone: severities and priorities share no word, and a name with
        // "Severity" in it would also answer to the select's label.
        aria-label={isApplied ? `${value} applied` : `Apply ${value}`}
        icon={isApplied ? <Check className="size-4" aria-hidden="true" /> : undefined}
      >
        {isApplied ? 'Applied' : 'Apply'}
      </Button>
    </li>
  );
}

/**
 * Triage suggestions beside the report form (issue 14): likely duplicates as links,
 * severity and priority with their reason, developers who fixed similar bugs. One click
 * applies each; the tracker records what was shown and taken for the report's metadata.
 */
export function TriageSuggestionsPanel({ values, apply, tracker, bugLink, viewAs }: Props) {
  const headingId = useId();
  const emails = useKnownEmails();
  const { isEnabled, suggestions, isLoading, isError } = useTriageSuggestions(values.title, values.description);

  useEffect(() => {
    if (suggestions) tracker.markShown(kindsIn(suggestions));
  }, [suggestions, tracker]);

  if (!isEnabled) return null;
  const hasAny = suggestions ? kindsIn(suggestions).length > 0 : false;

  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-lg border border-brand-200 bg-brand-50 p-4"
      data-testid="triage-suggestions"
    >
      <h2 id={headingId} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <Lightbulb className="size-4 text-brand-600" aria-hidden="true" /> Suggestions
      </h2>
      <p role="status" aria-live="polite" className="sr-only">
        {suggestions ? summaryOf(suggestions) : ''}
      </p>
      {isLoading ? (
        <p className="mt-2 text-sm text-slate-600">Looking for similar bugs…</p>
      ) : isError && !suggestions ? (
        <p className="mt-2 text-sm text-slate-600">Suggestions are not available right now.</p>
      ) : suggestions && !hasAny ? (
        <p className="mt-2 text-sm text-slate-600">No similar bugs yet.</p>
      ) : suggestions ? (
        <div className="mt-3 space-y-4">
          {suggestions.duplicates.length > 0 ? (
            <div>
              <h3 className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                <Copy className="size-3.5" aria-hidden="true" /> Likely duplicates
              </h3>
              <ul className="mt-1.5 space-y-1">
                {suggestions.duplicates.map((d) => (
                  <li key={d._id} className="min-w-0 text-sm break-words text-slate-700">
                    <a
                      href={bugLink(d._id)}
                      target="_blank"
                      rel="noopener"
                      className="font-medium text-brand-700 underline-offset-2 hover:underline"
                    >
                      {d.number ? `#${d.number} ` : ''}
                      {d.title}
                      <span className="sr-only"> (opens in a new tab)</span>
                    </a>{' '}
                    — {statusDisplayName(d.status, viewAs)} —{' '}
                    <span title="Similarity, 0 to 1">
                      <span className="sr-only">similarity </span>
                      {d.score.toFixed(2)}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {suggestions.severity || suggestions.priority ? (
            <ul className="space-y-3">
              {suggestions.severity ? (
                <ValueRow
                  label="Severity"
                  value={suggestions.severity.value}
                  reason={suggestions.severity.reason}
                  isApplied={values.severity === suggestions.severity.value}
                  onApply={() => {
                    const value = suggestions.severity!.value;
                    tracker.markTaken('severity', value);
                    apply({ severity: value });
                  }}
                />
              ) : null}
              {suggestions.priority ? (
                <ValueRow
                  label="Priority"
                  value={suggestions.priority.value}
                  reason={suggestions.priority.reason}
                  isApplied={values.priority === suggestions.priority.value}
                  onApply={() => {
                    const value = suggestions.priority!.value;
                    tracker.markTaken('priority', value);
                    apply({ priority: value });
                  }}
                />
              ) : null}
            </ul>
          ) : null}
          {suggestions.assignees.length > 0 ? (
            <div>
              <h3 className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                <UserPlus className="size-3.5" aria-hidden="true" /> Suggested developers
              </h3>
              <ul className="mt-1.5 space-y-2">
                {suggestions.assignees.map((dev) => {
                  const isAssigned = values.assignedTo.includes(dev._id);
                  return (
                    <li key={dev._id} className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
                      <div className="min-w-0 flex-1">
                        <p className="text-sm font-medium break-words text-slate-800">
                          {dev.name}
                          {emails.get(dev._id) ? (
                            <span className="ml-2 text-xs font-normal break-all text-slate-600">
                              {emails.get(dev._id)}
                            </span>
                          ) : null}
                        </p>
                        <p className="text-xs text-slate-600">{dev.reason}</p>
                      </div>
                      <Button
                        size="sm"
                        variant={isAssigned ? 'ghost' : 'outline'}
                        disabled={isAssigned}
                        onClick={() => {
                          tracker.markAssigned(dev._id);
                          apply({ assignedTo: [...values.assignedTo, dev._id] });
                        }}
                        aria-label={isAssigned ? `${dev.name} assigned` : `Assign ${dev.name}`}
                        icon={isAssigned ? <Check className="size-4" aria-hidden="true" /> : undefined}
                      >
                        {isAssigned ? 'Assigned' : 'Assign'}
                      </Button>
                    </li>
                  );
                })}
              </ul>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
