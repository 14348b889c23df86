import type { Event } from '../core/event.js';
import type * as S from './bug.schemas.js';
import type { CommitLinkedData, PullRequestLinkedData } from './code-links.js';

export type BugReported = Event<'BugReported', S.BugReportedData>;
export type BugDetailsEdited = Event<'BugDetailsEdited', S.BugDetailsEditedData>;
export type DevelopersAssigned = Event<'DevelopersAssigned', S.DevelopersAssignedData>;
export type DevelopersUnassigned = Event<'DevelopersUnassigned', S.DevelopersUnassignedData>;
export type BugStatusChanged = Event<'BugStatusChanged', S.BugStatusChangedData>;
export type ChecklistItemAdded = Event<'ChecklistItemAdded', S.ChecklistItemAddedData>;
export type ChecklistItemTextChanged = Event<'ChecklistItemTextChanged', S.ChecklistItemTextChangedData>;
export type ChecklistItemCompleted = Event<'ChecklistItemCompleted', S.ChecklistItemCompletedData>;
export type ChecklistItemReopened = Event<'ChecklistItemReopened', S.ChecklistItemReopenedData>;
export type ChecklistItemRemoved = Event<'ChecklistItemRemoved', S.ChecklistItemRemovedData>;
export type AttachmentLinkAdded = Event<'AttachmentLinkAdded', S.AttachmentLinkAddedData>;
export type AttachmentLinkRemoved = Event<'AttachmentLinkRemoved', S.AttachmentLinkRemovedData>;
export type BugDeleted = Event<'BugDeleted', S.BugDeletedData>;
export type BugNumbered = Event<'BugNumbered', S.BugNumberedData>;
export type AttachmentFileAdded = Event<'AttachmentFileAdded', S.AttachmentFileAddedData>;
export type AttachmentFileRemoved = Event<'AttachmentFileRemoved', S.AttachmentFileRemovedData>;

export type CommitLinked = Event<'CommitLinked', CommitLinkedData>;
export type PullRequestLinked = Event<'PullRequestLinked', PullRequestLinkedData>;

export type BugEvent =
  | BugReported
  | BugDetailsEdited
  | DevelopersAssigned
  | DevelopersUnassigned
  | BugStatusChanged
  | ChecklistItemAdded
  | ChecklistItemTextChanged
  | ChecklistItemCompleted
  | ChecklistItemReopened
  | ChecklistItemRemoved
  | AttachmentLinkAdded
  | AttachmentLinkRemoved
  | BugDeleted
  | BugNumbered
  | AttachmentFileAdded
  | AttachmentFileRemoved
  | CommitLinked
  | PullRequestLinked;

export type BugEventType = BugEvent['type'];
