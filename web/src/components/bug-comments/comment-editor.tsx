import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';
import { useKnownEmails } from '../ui/person-name';
import { CommentEditorFooter } from './comment-editor-footer';
import { type CommentDraft, checkCommentBody } from './comments-api';
import { MentionList } from './mention-list';
import { filterCandidates, type MentionCandidate, mentionQueryAt, mentionsStillIn, type Person } from './mentions';
import { useCommentBox } from './use-comment-box';

/**
 * A markdown text box with @-mentions, for a new comment and for editing one. Typing `@`
 * opens a listbox of the people who may see the bug (the textbox stays focused and points
 * at the active option with aria-activedescendant): ↑/↓ move, Enter or Tab picks, Escape
 * closes. A pick inserts `@Name` and remembers the id; when sending, ids whose `@Name` is
 * no longer in the text are dropped. Ctrl/Cmd+Enter sends.
 */

type CommentEditorProps = {
  label: string;
  /** Shown, or only given to screen readers (the edit box sits in the comment it edits). */
  isLabelVisible?: boolean;
  initialBody?: string;
  /** Already mentioned (an edit): kept while their `@Name` stays in the text. */
  initialMentions?: readonly Person[];
  candidates: readonly MentionCandidate[];
  submitLabel: string;
  isBusy: boolean;
  /** The server's refusal, shown under the box. */
  error: string | null;
  /** Resolves true when the comment was taken (the box then empties or closes). */
  onSubmit: (draft: CommentDraft) => Promise<boolean>;
  onCancel?: () => void;
  onDirtyChange: (isDirty: boolean) => void;
  /** Clears the server's refusal once the text changes. */
  onEdited?: () => void;
  autoFocus?: boolean;
  placeholder?: string;
  footerNote?: ReactNode;
};

export function CommentEditor({
  label,
  isLabelVisible = true,
  initialBody = '',
  initialMentions = [],
  candidates,
  submitLabel,
  isBusy,
  error,
  onSubmit,
  onCancel,
  onDirtyChange,
  onEdited,
  autoFocus,
  placeholder,
  footerNote,
}: CommentEditorProps) {
  const [text, setText] = useState(initialBody);
  const emails = useKnownEmails();
  const [picked, setPicked] = useState<readonly Person[]>(initialMentions);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  /** Escape closes the list for the mention being typed, until another `@` starts. */
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [localError, setLocalError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const boxId = useId();
  const listId = useId();
  const errorId = useId();
  const noteId = useId();

  const isDirty = text.trim() !== initialBody.trim();
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  // Leaving with a draft still typed is no longer a draft once the editor is gone.
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  useCommentBox(box, text, autoFocus);

  const suggestions = useMemo(
    () => (mention && mention.start !== dismissedAt ? filterCandidates(candidates, mention.query) : []),
    [mention, dismissedAt, candidates],
  );
  const isListOpen = suggestions.length > 0;
  const activeIndex = Math.min(active, Math.max(suggestions.length - 1, 0));
  const optionId = (index: number) => `${listId}-option-${index}`;

  const followCaret = (value: string, caret: number | null) => {
    const found = caret === null ? null : mentionQueryAt(value, caret);
    // A new query starts at the top of the list; moving the caret within the same one does not.
    if (found?.start !== mention?.start || found?.query !== mention?.query) setActive(0);
    setMention(found);
    if (found?.start !== dismissedAt) setDismissedAt(null);
  };

  const pick = (person: MentionCandidate) => {
    const el = box.current;
    if (!mention || !el) return;
    const caret = el.selectionStart ?? text.length;
    const insert = `@${person.name} `;
    const next = text.slice(0, mention.start) + insert + text.slice(caret);
    setPicked((current) => (current.some((p) => p._id === person._id) ? current : [...current, person]));
    setMention(null);
    // The caret lands right after `@Name `, which reads as a query again: not for this mention.
    setDismissedAt(mention.start);
    onEdited?.();
    const position = mention.start + insert.length;
    // Committed now, the caret with it: a key typed right after the pick lands after the name.
    // (Placed on the next frame, the caret jumped back over what a fast typist had typed since.)
    flushSync(() => setText(next));
    el.focus();
    el.setSelectionRange(position, position);
  };

  const send = async () => {
    if (isBusy) return;
    const problem = checkCommentBody(text);
    if (problem) {
      setLocalError(problem);
      return;
    }
    setLocalError(null);
    setMention(null);
    const body = text.trim();
    const ok = await onSubmit({ body, mentions: mentionsStillIn(body, picked) });
    if (ok && !onCancel) {
      // A new comment: the box empties for the next one.
      setText('');
      setPicked([]);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
      return;
    }
    if (isListOpen) {
      if (event.key === 'ArrowDown') {
        event.preventDefault();
        setActive((activeIndex + 1) % suggestions.length);
        return;
      }
      if (event.key === 'ArrowUp') {
        event.preventDefault();
        setActive((activeIndex - 1 + suggestions.length) % suggestions.length);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
        event.preventDefault();
        const person = suggestions[activeIndex];
        if (person) pick(person);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setDismissedAt(mention?.start ?? null);
        return;
      }
    }
    if (event.key === 'Escape' && onCancel && !isDirty) {
      event.preventDefault();
      onCancel();
    }
  };

  const shownError = localError ?? error;
  const length = text.trim().length;

  return (
    <form
      className="space-y-2"
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void send();
      }}
    >
      <label htmlFor={boxId} className={isLabelVisible ? 'block text-sm font-medium text-slate-700' : 'sr-only'}>
        {label}
      </label>
      <div className="relative">
        <textarea
          ref={box}
          id={boxId}
          rows={3}
          value={text}
          readOnly={isBusy}
          placeholder={placeholder}
          onChange={(event) => {
            setText(event.target.value);
            setLocalError(null);
            onEdited?.();
            followCaret(event.target.value, event.target.selectionStart);
          }}
          onSelect={(event) => followCaret(event.currentTarget.value, event.currentTarget.selectionStart)}
          onBlur={() => setMention(null)}
          onKeyDown={onKeyDown}
          aria-autocomplete="list"
          aria-haspopup="listbox"
          aria-controls={isListOpen ? listId : undefined}
          aria-activedescendant={isListOpen ? optionId(activeIndex) : undefined}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? errorId : noteId}
          className={cx(controlClass(!!shownError), 'min-h-22 resize-y py-2 leading-relaxed')}
        />
        {isListOpen ? (
          <MentionList
            listId={listId}
            suggestions={suggestions}
            activeIndex={activeIndex}
            optionId={optionId}
            emails={emails}
            pick={pick}
            setActive={setActive}
          />
        ) : null}
      </div>
      {shownError ? (
        <p id={errorId} role="alert" className="text-sm text-rose-600">
          {shownError}
        </p>
      ) : null}
      <CommentEditorFooter
        noteId={noteId}
        footerNote={footerNote}
        length={length}
        isBusy={isBusy}
        submitLabel={submitLabel}
        onCancel={onCancel}
      />
    </form>
  );
}
