import type { ApplicableSuggestionKind, SuggestionKind, SuggestionUsage } from '@bugtrail/domain/vocabulary';
import { applicableSuggestionKinds, suggestionKinds } from '@bugtrail/domain/vocabulary';
import { useCallback, useMemo, useRef } from 'react';
import type { BugFormValues } from '../../lib/bug-form';

/** What was applied: the value for severity and priority, the developers for assignees. */
type Applied = { severity?: string; priority?: string; assignees: Set<string> };

export type SuggestionTracker = {
  markShown(kinds: readonly SuggestionKind[]): void;
  markTaken(kind: 'severity' | 'priority', value: string): void;
  markAssigned(developerId: string): void;
  /** The `suggestions` field of the report: taken = applied and still in the form as applied. */
  usageFor(values: BugFormValues): SuggestionUsage;
};

/** Remembers, for one report form, which suggestions were shown and which were applied. */
export function useSuggestionTracker(): SuggestionTracker {
  const shown = useRef(new Set<SuggestionKind>());
  const applied = useRef<Applied>({ assignees: new Set() });
  const markShown = useCallback((kinds: readonly SuggestionKind[]) => {
    for (const kind of kinds) shown.current.add(kind);
  }, []);
  const markTaken = useCallback((kind: 'severity' | 'priority', value: string) => {
    applied.current[kind] = value;
  }, []);
  const markAssigned = useCallback((developerId: string) => {
    applied.current.assignees.add(developerId);
  }, []);
  const usageFor = useCallback((values: BugFormValues): SuggestionUsage => {
    const a = applied.current;
    const kept: Record<ApplicableSuggestionKind, boolean> = {
      severity: a.severity !== undefined && a.severity === values.severity,
      priority: a.priority !== undefined && a.priority === values.priority,
      assignees: [...a.assignees].some((id) => values.assignedTo.includes(id)),
    };
    return {
      shown: suggestionKinds.filter((k) => shown.current.has(k)),
      taken: applicableSuggestionKinds.filter((k) => kept[k]),
    };
  }, []);
  return useMemo(
    () => ({ markShown, markTaken, markAssigned, usageFor }),
    [markShown, markTaken, markAssigned, usageFor],
  );
}
