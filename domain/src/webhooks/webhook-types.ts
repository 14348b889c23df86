import type { WebhookEventType } from './webhook-vocabulary.js';

/** The webhook type of each event that has one (api.md: every event maps to one type at most). */
const typeOfEvent: Readonly<Record<string, WebhookEventType>> = {
  BugReported: 'bug.reported',
  BugDetailsEdited: 'bug.updated',
  AttachmentLinkAdded: 'bug.updated',
  AttachmentLinkRemoved: 'bug.updated',
  AttachmentFileAdded: 'bug.updated',
  AttachmentFileRemoved: 'bug.updated',
  // Code links: their `changes` say `commits` or `pullRequests`.
  CommitLinked: 'bug.updated',
  PullRequestLinked: 'bug.updated',
  // Archiving: `changes` say `archived`.
  BugArchived: 'bug.updated',
  BugRestored: 'bug.updated',
  // Labels: their `changes` say `labels`.
  BugLabelsAdded: 'bug.updated',
  BugLabelsRemoved: 'bug.updated',
  // Relations and sub-bugs: the bug's `relations`, `parent` say what they are now.
  BugRelationAdded: 'bug.updated',
  BugRelationRemoved: 'bug.updated',
  BugParentSet: 'bug.updated',
  BugMilestoneSet: 'bug.updated',
  BugFieldsChanged: 'bug.updated',
  BugStatusChanged: 'bug.status_changed',
  DevelopersAssigned: 'bug.assigned',
  DevelopersUnassigned: 'bug.assigned',
  ChecklistItemAdded: 'bug.checklist_changed',
  ChecklistItemTextChanged: 'bug.checklist_changed',
  ChecklistItemCompleted: 'bug.checklist_changed',
  ChecklistItemReopened: 'bug.checklist_changed',
  ChecklistItemRemoved: 'bug.checklist_changed',
  BugDeleted: 'bug.deleted',
  CommentAdded: 'comment.created',
};

export function webhookTypeOf(eventType: string): WebhookEventType | null {
  return typeOfEvent[eventType] ?? null;
}

/** Whether a subscription to `events` (types, or `*`) wants this type. */
export function subscribesTo(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}
