import { z } from 'zod';
import { archiveEventSchemas } from './archive.js';
import { bugFieldEventSchemas } from './bug-fields.js';
import { bugMilestoneEventSchemas } from './bug-milestone.js';
import { bugProjectEventSchemas } from './bug-project.js';
import { bugStateEventSchemas } from './bug-state.js';
import { bugStatuses, priorities, severities } from './bug-vocabulary.js';
import { codeLinkEventSchemas } from './code-links.js';
import { bugLabelEventSchemas } from './labels.js';
import { rankEventSchemas } from './rank.js';
import { relationEventSchemas } from './relations.js';
import { worklogEventSchemas } from './worklog.js';

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
  /** The bug's short name (#42): 1, 2, 3, … in report order. Absent on bugs reported before numbers; BugNumbered gives them one. */
  number: z.number().int().positive().optional(),
  /** Its project (issue 35). Absent on bugs reported before projects: those are the default project's, General. */
  projectId: id.optional(),
  /** Its number within the project (`WEB-7`). Absent before projects: a General bug's is its `number`. */
  projectNumber: z.number().int().positive().optional(),
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
/** `overriddenBlockers`: an admin closed it while these bugs that block it were open (issue 36). */
export const bugStatusChangedData = z.object({
  bugId: id,
  from: bugStatusSchema,
  to: bugStatusSchema,
  overriddenBlockers: z.array(id).optional(),
});
export const checklistItemAddedData = z.object({ bugId: id, itemId: id, text: z.string().min(1).max(500) });
export const checklistItemTextChangedData = z.object({ bugId: id, itemId: id, text: z.string().min(1).max(500) });
export const checklistItemCompletedData = z.object({ bugId: id, itemId: id, by: id, at: isoDate });
export const checklistItemReopenedData = z.object({ bugId: id, itemId: id });
export const checklistItemRemovedData = z.object({ bugId: id, itemId: id });
export const attachmentLinkAddedData = z.object({ bugId: id, url: z.string().min(1).max(2048) });
export const attachmentLinkRemovedData = z.object({ bugId: id, url: z.string().min(1).max(2048) });
export const bugDeletedData = z.object({ bugId: id });
/** A file stored in the blob store under `key` (server-made), attached to the bug; `contentType` as its bytes say. */
export const attachmentFileAddedData = z.object({
  bugId: id,
  fileId: id,
  key: z.string().min(1).max(500),
  name: z.string().min(1).max(255),
  size: z.number().int().positive(),
  contentType: z.string().min(1).max(100),
});
/** `name` repeats the added file's, so the history reads without looking back. */
export const attachmentFileRemovedData = z.object({ bugId: id, fileId: id, name: z.string().min(1).max(255) });
/** A number given afterwards to a bug reported before bugs had numbers (once, by the write side's backfill). */
export const bugNumberedData = z.object({ bugId: id, number: z.number().int().positive() });

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
  BugNumbered: { version: 1, data: bugNumberedData },
  AttachmentFileAdded: { version: 1, data: attachmentFileAddedData },
  AttachmentFileRemoved: { version: 1, data: attachmentFileRemovedData },
  ...codeLinkEventSchemas,
  ...archiveEventSchemas,
  ...bugProjectEventSchemas,
  ...bugLabelEventSchemas,
  ...rankEventSchemas,
  ...relationEventSchemas,
  ...bugMilestoneEventSchemas,
  ...bugFieldEventSchemas,
  ...bugStateEventSchemas,
  ...worklogEventSchemas,
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
export type BugNumberedData = Data<'BugNumbered'>;
export type AttachmentFileAddedData = Data<'AttachmentFileAdded'>;
export type AttachmentFileRemovedData = Data<'AttachmentFileRemoved'>;
