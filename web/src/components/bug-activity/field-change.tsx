import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Role } from '../../lib/types';
import type { FieldChange } from './activity-api';
import { fieldKey, fieldLabel, formatFieldValue } from './describe-event';
import { diffText } from './text-diff';

/**
 * One field's change: its label, then the old value, then the new. Text fields read as
 * a word diff (removed struck through, added highlighted); lists as before and after.
 */

const proseFields = new Set(['description', 'title']);
const listFields = new Set(['checklist', 'attachments']);

function TextDiff({ before, after }: { before: string; after: string }) {
  return (
    <p className="rounded-lg bg-white px-3 py-2 leading-6 break-words whitespace-pre-wrap text-slate-700 ring-1 ring-slate-100">
      {diffText(before, after).map((part, index) =>
        part.kind === 'removed' ? (
          <del
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
            key={index}
            className="rounded-sm bg-rose-50 px-0.5 text-rose-700 decoration-rose-400"
          >
            {part.text}
          </del>
        ) : part.kind === 'added' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
          <ins key={index} className="rounded-sm bg-lime-100 px-0.5 text-lime-900 no-underline">
            {part.text}
          </ins>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}

function ValueList({ caption, lines, tone }: { caption: string; lines: string[]; tone: 'old' | 'new' }) {
  return (
    <div className="min-w-0">
      <p className="text-xs font-medium text-slate-500">{caption}</p>
      <ul className={tone === 'old' ? 'mt-1 space-y-0.5 text-slate-500' : 'mt-1 space-y-0.5 text-slate-800'}>
        {lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a value's lines may repeat
          <li key={index} className="break-all">
            {line}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function FieldChangeView({ change, viewAs }: { change: FieldChange; viewAs: Role }) {
  const key = fieldKey(change.field);
  const before = formatFieldValue(key, change.from, viewAs);
  const after = formatFieldValue(key, change.to, viewAs);
  let value: ReactNode;
  if (proseFields.has(key) && typeof change.from === 'string' && typeof change.to === 'string') {
    value = <TextDiff before={change.from} after={change.to} />;
  } else if (listFields.has(key)) {
    value = (
      <div className="grid gap-2 sm:grid-cols-2">
        <ValueList caption="Before" lines={before} tone="old" />
        <ValueList caption="After" lines={after} tone="new" />
      </div>
    );
  } else {
    value = (
      <span className="inline-flex flex-wrap items-center gap-1.5">
        <span className="rounded-md bg-rose-50 px-1.5 py-0.5 break-all text-rose-700 line-through decoration-rose-300">
          {before.join(', ')}
        </span>
        <ArrowRight className="size-3.5 shrink-0 text-slate-400" aria-hidden="true" />
        <span className="sr-only">to</span>
        <span className="rounded-md bg-lime-100 px-1.5 py-0.5 break-all text-lime-900">{after.join(', ')}</span>
      </span>
    );
  }
  return (
    <div className="grid gap-1 sm:grid-cols-[7.5rem_minmax(0,1fr)] sm:gap-3">
      <dt className="pt-0.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {fieldLabel(change.field)}
      </dt>
      <dd className="min-w-0 text-sm">{value}</dd>
    </div>
  );
}
