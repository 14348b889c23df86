import type { z } from 'zod';
import type { Event } from '../core/event.js';
import type { bugEventSchemas } from './bug.schemas.js';

/**
 * The bug stream's events, derived from its schemas (bug.schemas.ts, which spreads each
 * feature module's own, as archive.ts and code-links.ts do): a new event is one entry in
 * its module's schema map, and the union, the store's validation and the projections'
 * typing follow from it.
 */
type BugEventSchemas = typeof bugEventSchemas;
export type BugEventMap = {
  [K in keyof BugEventSchemas]: Event<K, z.infer<BugEventSchemas[K]['data']>>;
};
export type BugEvent = BugEventMap[keyof BugEventMap];
export type BugEventType = BugEvent['type'];

export type BugReported = BugEventMap['BugReported'];
export type BugDetailsEdited = BugEventMap['BugDetailsEdited'];
export type DevelopersAssigned = BugEventMap['DevelopersAssigned'];
export type DevelopersUnassigned = BugEventMap['DevelopersUnassigned'];
export type BugStatusChanged = BugEventMap['BugStatusChanged'];
export type ChecklistItemAdded = BugEventMap['ChecklistItemAdded'];
export type ChecklistItemTextChanged = BugEventMap['ChecklistItemTextChanged'];
export type ChecklistItemCompleted = BugEventMap['ChecklistItemCompleted'];
export type ChecklistItemReopened = BugEventMap['ChecklistItemReopened'];
export type ChecklistItemRemoved = BugEventMap['ChecklistItemRemoved'];
export type AttachmentLinkAdded = BugEventMap['AttachmentLinkAdded'];
export type AttachmentLinkRemoved = BugEventMap['AttachmentLinkRemoved'];
export type BugDeleted = BugEventMap['BugDeleted'];
export type BugNumbered = BugEventMap['BugNumbered'];
export type AttachmentFileAdded = BugEventMap['AttachmentFileAdded'];
export type AttachmentFileRemoved = BugEventMap['AttachmentFileRemoved'];
export type CommitLinked = BugEventMap['CommitLinked'];
export type PullRequestLinked = BugEventMap['PullRequestLinked'];
export type BugArchived = BugEventMap['BugArchived'];
export type BugRestored = BugEventMap['BugRestored'];
export type BugMovedToProject = BugEventMap['BugMovedToProject'];
export type BugInTriage = BugEventMap['BugInTriage'];
export type BugLabelsAdded = BugEventMap['BugLabelsAdded'];
export type BugLabelsRemoved = BugEventMap['BugLabelsRemoved'];
export type BugRanked = BugEventMap['BugRanked'];
export type BugRelationAdded = BugEventMap['BugRelationAdded'];
export type BugRelationRemoved = BugEventMap['BugRelationRemoved'];
export type BugParentSet = BugEventMap['BugParentSet'];
export type BugMilestoneSet = BugEventMap['BugMilestoneSet'];
export type BugFieldsChanged = BugEventMap['BugFieldsChanged'];
export type BugStateChanged = BugEventMap['BugStateChanged'];
export type WorkLogged = BugEventMap['WorkLogged'];
export type WorkLogDeleted = BugEventMap['WorkLogDeleted'];
export type BugEstimated = BugEventMap['BugEstimated'];
