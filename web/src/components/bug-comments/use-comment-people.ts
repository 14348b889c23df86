import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { teamQuery } from '../../lib/queries';
import type { Bug } from '../../lib/types';
import type { BugComment } from './comments-api';
import { type DirectoryEntry, mentionCandidates, type Person } from './mentions';

/**
 * Who the discussion knows: the people a comment may mention (`candidates`, for the
 * editor's @-list) and a person for each id the comments carry (`people`).
 */
export function useCommentPeople(bug: Bug, comments: BugComment[] | undefined, selfId: string | undefined) {
  const directory = useQuery({ ...teamQuery(), staleTime: 5 * 60_000 });
  const entries = useMemo(() => (directory.data ?? []) as DirectoryEntry[], [directory.data]);
  const candidates = useMemo(
    () => mentionCandidates({ directory: entries, reporter: bug.createdBy, assignees: bug.assignedTo, selfId }),
    [entries, bug.createdBy, bug.assignedTo, selfId],
  );
  /** Names and faces for ids: the directory, the bug's people, the comments' authors. */
  const people = useMemo(() => {
    const map = new Map<string, Person>();
    for (const c of comments ?? []) map.set(c.author._id, c.author);
    for (const p of [bug.createdBy, ...bug.assignedTo]) if (p) map.set(p._id, p);
    for (const e of entries) map.set(e._id, e);
    return map;
  }, [comments, bug.createdBy, bug.assignedTo, entries]);
  return { candidates, people };
}
