import { Link as LinkIcon, ListChecks } from 'lucide-react';
import type { BugFormValues } from '../lib/bug-form';
import type { BugFieldProps } from './bug-fields';
import { EntriesField } from './entries-field';

/**
 * The report/edit form's lists: the steps to reproduce and the attachment links, each with
 * the box a new one is typed in. The drafts live in the form, which sends a typed but
 * unadded one along and clears them all.
 */
export function BugFormEntries({
  values,
  errors,
  set,
  clearError,
  checklistDraft,
  setChecklistDraft,
  addChecklist,
  attachmentDraft,
  setAttachmentDraft,
  addAttachment,
}: BugFieldProps & {
  clearError: (field: keyof BugFormValues) => void;
  checklistDraft: string;
  setChecklistDraft: (text: string) => void;
  addChecklist: () => void;
  attachmentDraft: string;
  setAttachmentDraft: (text: string) => void;
  addAttachment: () => void;
}) {
  return (
    <section className="grid grid-cols-1 gap-6 p-6 lg:grid-cols-2">
      <EntriesField
        icon={<ListChecks className="size-4 text-slate-400" />}
        label="Checklist (steps to reproduce)"
        placeholder="Add a step and press Enter"
        draft={checklistDraft}
        onDraft={(text) => {
          setChecklistDraft(text);
          clearError('checklist');
        }}
        onAdd={addChecklist}
        error={errors.checklist}
        ordered
        entries={values.checklist.map((item, index) => ({
          key: item._id ?? `${index}-${item.text}`,
          text: item.text,
        }))}
        removeLabel={(index) => `Remove step ${index + 1}`}
        onRemove={(index) =>
          set(
            'checklist',
            values.checklist.filter((_, i) => i !== index),
          )
        }
      />
      <EntriesField
        icon={<LinkIcon className="size-4 text-slate-400" />}
        label="Attachment links"
        placeholder="https://…"
        type="url"
        draft={attachmentDraft}
        onDraft={(text) => {
          setAttachmentDraft(text);
          clearError('attachments');
        }}
        onAdd={addAttachment}
        error={errors.attachments}
        hint="A full link, starting with https:// or http://"
        // The same link may be listed twice: the key keeps its place.
        entries={values.attachments.map((link, index) => ({ key: `${index}-${link}`, text: link }))}
        removeLabel={(index) => `Remove link ${index + 1}`}
        onRemove={(index) =>
          set(
            'attachments',
            values.attachments.filter((_, i) => i !== index),
          )
        }
      />
    </section>
  );
}
