import { z } from 'zod';
import { bugStatuses, priorities, severities } from './bug-vocabulary.js';

export { type BugStatus, bugStatuses, type Priority, priorities, type Severity, severities } from './bug-vocabulary.js';

/**
 * Bug events: the contract between write-api (which appends them), the projector
 * (which folds them into read models) and auditors (who replay them).
 */
export const bugStatusSchema = z.enum(bugStatuses);
export const prioritySchema = z.enum(priorities);
export const severitySchema = z.enum(severities);

const id = z.string().min(1).max(100);
const isoDate = z.string().datetime({ offset: true });

export const bugReportedData = z.object({
  bugId: id,
  title: z.string().min(1).max(100),
  description: z.string().min(1).max(20_000),
  priority: prioritySchema,
  severity: severitySchema,
  /** Always 'Open' today; kept so a future import can report bugs in another state. */
  status: bugStatusSchema,
  module: z.string().max(50).nullable(),
  dueDate: isoDate.nullable(),
  reporterId: id,
});

export const bugDetailsEditedData = z.object({
  bugId: id,
  /** Only the fields that changed, with their new values. */
  changes: z
    .object({
      title: z.string().min(1).max(100),
      description: z.string().min(1).max(20_000),
      priority: prioritySchema,
      severity: severitySchema,
      module: z.string().max(50).nullable(),
      dueDate: isoDate.nullable(),
    })
    .partial(),
});

export const developersAssignedData = z.object({ bugId: id, developerIds: z.array(id).min(1) });
export const developersUnassignedData = z.object({ bugId: id, developerIds: z.array(id).min(1) });
export const bugStatusChangedData = z.object({ bugId: id, from: bugStatusSchema, to: bugStatusSchema });
export const checklistItemAddedData = z.object({ bugId: id, itemId: id, text: z.string().min(1).max(500) });
export const checklistItemTextChangedData = z.object({ bugId: id, itemId: id, text: z.string().min(1).max(500) });
export const checklistItemCompletedData = z.object({ bugId: id, itemId: id, by: id, at: isoDate });
export const checklistItemReopenedData = z.object({ bugId: id, itemId: id });
export const checklistItemRemovedData = z.object({ bugId: id, itemId: id });
export const attachmentLinkAddedData = z.object({ bugId: id, url: z.string().min(1).max(2048) });
export const attachmentLinkRemovedData = z.object({ bugId: id, url: z.string().min(1).max(2048) });
export const bugDeletedData = z.object({ bugId: id });

export const bugEventSchemas = {
  BugReported: { version: 1, data: bugReportedData },
  BugDetailsEdited: { version: 1, data: bugDetailsEditedData },
  DevelopersAssigned: { version: 1, data: developersAssignedData },
  DevelopersUnassigned: { version: 1, data: developersUnassignedData },
  BugStatusChanged: { version: 1, data: bugStatusChangedData },
  ChecklistItemAdded: { version: 1, data: checklistItemAddedData },
  ChecklistItemTextChanged: { version: 1, data: checklistItemTextChangedData },
  ChecklistItemCompleted: { version: 1, data: checklistItemCompletedData },
  ChecklistItemReopened: { version: 1, data: checklistItemReopenedData },
  ChecklistItemRemoved: { version: 1, data: checklistItemRemovedData },
  AttachmentLinkAdded: { version: 1, data: attachmentLinkAddedData },
  AttachmentLinkRemoved: { version: 1, data: attachmentLinkRemovedData },
  BugDeleted: { version: 1, data: bugDeletedData },
} as const;

type Data<K extends keyof typeof bugEventSchemas> = z.infer<(typeof bugEventSchemas)[K]['data']>;
export type BugReportedData = Data<'BugReported'>;
export type BugDetailsEditedData = Data<'BugDetailsEdited'>;
export type DevelopersAssignedData = Data<'DevelopersAssigned'>;
export type DevelopersUnassignedData = Data<'DevelopersUnassigned'>;
export type BugStatusChangedData = Data<'BugStatusChanged'>;
export type ChecklistItemAddedData = Data<'ChecklistItemAdded'>;
export type ChecklistItemTextChangedData = Data<'ChecklistItemTextChanged'>;
export type ChecklistItemCompletedData = Data<'ChecklistItemCompleted'>;
export type ChecklistItemReopenedData = Data<'ChecklistItemReopened'>;
export type ChecklistItemRemovedData = Data<'ChecklistItemRemoved'>;
export type AttachmentLinkAddedData = Data<'AttachmentLinkAdded'>;
export type AttachmentLinkRemovedData = Data<'AttachmentLinkRemoved'>;
export type BugDeletedData = Data<'BugDeleted'>;
