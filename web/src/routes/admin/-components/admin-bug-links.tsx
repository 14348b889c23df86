import { Link as LinkIcon, Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { cx } from '../../../components/ui/cx';
import { controlClass } from '../../../components/ui/field';
import { attachmentLinkError } from '../../../lib/bug-form';
import { useUpdateBug } from '../../../lib/mutations';
import { notify } from '../../../lib/notify';
import type { Bug } from '../../../lib/types';
import { type OnSaved, onEnter, savedFrom } from './admin-bug-extras-shared';

/**
 * The bug's attachment links on the admin's bug page (AdminBugExtras): listed, added and
 * removed in place, each change saved at once.
 */
export function LinksCard({ bug, onSaved }: { bug: Bug; onSaved: OnSaved }) {
  const edit = useUpdateBug(bug._id);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  const saveLinks = async (links: string[], success: string) => {
    try {
      savedFrom(bug, onSaved)(await edit.mutateAsync({ payload: { attachments: links } }));
      notify.success(success);
      return true;
    } catch {
      notify.error('Failed to update links');
      return false;
    }
  };
  const addLink = async () => {
    const link = draft.trim();
    if (!link) return;
    const problem = attachmentLinkError(link);
    setError(problem);
    if (problem) return;
    if (await saveLinks([...bug.attachments, link], 'Link added')) setDraft('');
  };

  return (
    <Card>
      <CardHeader title="Attachments" />
      <div className="space-y-3 p-5">
        <ul className="space-y-2">
          {bug.attachments.length === 0 ? (
            <li className="text-sm text-slate-500">No attachments</li>
          ) : (
            bug.attachments.map((link, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same link may be listed twice
              <li key={`${index}-${link}`} className="flex items-center gap-2 text-sm">
                <LinkIcon className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
                <a
                  href={link}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="min-w-0 flex-1 truncate text-brand-700 hover:underline"
                >
                  {link}
                </a>
                <button
                  type="button"
                  aria-label={`Remove link ${index + 1}`}
                  disabled={edit.isPending}
                  onClick={() =>
                    void saveLinks(
                      bug.attachments.filter((_, i) => i !== index),
                      'Link removed',
                    )
                  }
                  className="shrink-0 rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-rose-600"
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))
          )}
        </ul>
        <div className="flex gap-2">
          <label htmlFor={inputId} className="sr-only">
            New link
          </label>
          <input
            id={inputId}
            type="url"
            inputMode="url"
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              setError(null);
            }}
            onKeyDown={onEnter(() => void addLink())}
            placeholder="https://…"
            aria-invalid={!!error || undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
            className={cx(controlClass(!!error), 'h-10 min-w-0 flex-1')}
          />
          <Button
            variant="secondary"
            onClick={() => void addLink()}
            isLoading={edit.isPending}
            icon={<Plus className="size-4" />}
          >
            Add link
          </Button>
        </div>
        {error ? (
          <p id={`${inputId}-error`} role="alert" className="text-sm text-rose-600">
            {error}
          </p>
        ) : null}
      </div>
    </Card>
  );
}
