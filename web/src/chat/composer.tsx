import { Paperclip, SendHorizontal } from 'lucide-react';
import { type ChangeEvent, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useKnownEmails } from '../components/ui/person-name';
import { notify } from '../lib/notify';
import { checkAttachments, MAX_ATTACHMENTS, mentionedIds, mentionQueryAt } from './chat-format';
import { MentionSuggestions } from './mention-suggestions';
import { type Picked, PickedFiles, revokeAll } from './picked-files';
import { ReplyBanner } from './reply-banner';
import type { ChatUser, Message } from './types';

export type ComposerSend = { content: string; mentions: string[]; replyTo: Message | null; files: File[] };

type ComposerProps = {
  chatId: string;
  /** Who may be @-mentioned (members other than the author). */
  members: ChatUser[];
  replyTo: Message | null;
  onCancelReply: () => void;
  /** Resolves false when the send failed (the draft comes back if the box is still empty). */
  onSend: (message: ComposerSend) => Promise<boolean>;
};

const previewable = /^image\/(png|jpe?g|gif|webp|avif|bmp)$/i;
let pickCounter = 0;

export function Composer({ chatId, members, replyTo, onCancelReply, onSend }: ComposerProps) {
  const emails = useKnownEmails();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<Picked[]>([]);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const filesRef = useRef(files);
  filesRef.current = files;
  const listId = useId();

  // Object URLs live as long as their chip.
  useEffect(() => () => revokeAll(filesRef.current), []);

  // A new chat starts with an empty composer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset per chat
  useEffect(() => {
    setText('');
    setMention(null);
    setFiles((old) => {
      revokeAll(old);
      return [];
    });
  }, [chatId]);

  useEffect(() => {
    if (replyTo) box.current?.focus();
  }, [replyTo]);

  // Grow with the text, up to a limit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: measure on every text change
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);

  const suggestions = useMemo(() => {
    if (!mention) return [];
    const query = mention.query.toLowerCase();
    return members.filter((user) => user.name.toLowerCase().includes(query)).slice(0, 6);
  }, [mention, members]);

  const updateMention = (value: string, caret: number | null) => {
    const found = caret === null ? null : mentionQueryAt(value, caret);
    setMention(found);
    setActive(0);
  };

  const pickMention = (user: ChatUser) => {
    const el = box.current;
    if (!mention || !el) return;
    const caret = el.selectionStart ?? text.length;
    const insert = `@${user.name} `;
    const next = text.slice(0, mention.start) + insert + text.slice(caret);
    setMention(null);
    const position = mention.start + insert.length;
    // Committed now, the caret with it: a key typed right after the pick lands after the name.
    // (Placed on the next frame, the caret jumped back over what a fast typist had typed since.)
    flushSync(() => setText(next));
    el.focus();
    el.setSelectionRange(position, position);
  };

  const addFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(event.target.files ?? [])];
    event.target.value = '';
    if (chosen.length === 0) return;
    const { accepted, errors } = checkAttachments(files.length, chosen);
    for (const error of errors) notify.error(error);
    const added = accepted.map((index) => {
      const file = chosen[index]!;
      pickCounter += 1;
      return { id: `f${pickCounter}`, file, preview: previewable.test(file.type) ? URL.createObjectURL(file) : null };
    });
    if (added.length) setFiles((old) => [...old, ...added]);
  };

  const removeFile = (id: string) => {
    setFiles((old) => {
      const gone = old.find((f) => f.id === id);
      if (gone?.preview) URL.revokeObjectURL(gone.preview);
      return old.filter((f) => f.id !== id);
    });
  };

  const canSend = text.trim().length > 0 || files.length > 0;

  const send = async () => {
    if (!canSend) return;
    const content = text.trim();
    const message: ComposerSend = {
      content,
      mentions: mentionedIds(content, members),
      replyTo,
      files: files.map((f) => f.file),
    };
    const draftFiles = files;
    setText('');
    setFiles([]);
    setMention(null);
    onCancelReply();
    const ok = await onSend(message);
    if (ok) {
      revokeAll(draftFiles);
      return;
    }
    // Give the draft back unless the user has started a new one.
    setText((current) => (current ? current : content));
    setFiles((current) => {
      if (current.length) {
        revokeAll(draftFiles);
        return current;
      }
      return draftFiles;
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention && suggestions.length > 0) {
      if (event.key === 'ArrowDown') {
        event.preventDefault();
        setActive((i) => (i + 1) % suggestions.length);
        return;
      }
      if (event.key === 'ArrowUp') {
        event.preventDefault();
        setActive((i) => (i - 1 + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        const user = suggestions[active];
        if (user) pickMention(user);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setMention(null);
        return;
      }
    }
    if (event.key === 'Escape' && replyTo) {
      onCancelReply();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <div className="border-t border-slate-200 bg-white px-3 py-3 sm:px-4">
      {replyTo ? <ReplyBanner replyTo={replyTo} onCancelReply={onCancelReply} /> : null}

      {files.length > 0 ? <PickedFiles files={files} onRemove={removeFile} /> : null}

      <div className="relative flex items-end gap-2">
        {mention && suggestions.length > 0 ? (
          <MentionSuggestions
            listId={listId}
            suggestions={suggestions}
            active={active}
            emails={emails}
            onPick={pickMention}
          />
        ) : null}
        <input
          ref={fileInput}
          type="file"
          multiple
          className="hidden"
          onChange={addFiles}
          data-testid="attachment-input"
        />
        <button
          type="button"
          onClick={() => fileInput.current?.click()}
          disabled={files.length >= MAX_ATTACHMENTS}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:opacity-40"
          aria-label="Attach files"
          title={`Attach files (up to ${MAX_ATTACHMENTS}, 20 MB each)`}
        >
          <Paperclip className="size-5" />
        </button>
        <textarea
          ref={box}
          rows={1}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            updateMention(event.target.value, event.target.selectionStart);
          }}
          onSelect={(event) => updateMention(event.currentTarget.value, event.currentTarget.selectionStart)}
          onBlur={() => setMention(null)}
          onKeyDown={onKeyDown}
          placeholder="Type a message…"
          title="Enter sends, Shift+Enter adds a line, @ mentions someone"
          aria-label="Message"
          aria-autocomplete="list"
          aria-controls={mention ? listId : undefined}
          className="block max-h-40 min-h-10 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2 text-sm leading-snug text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        />
        <button
          type="button"
          onClick={() => void send()}
          disabled={!canSend}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-300"
          aria-label="Send message"
        >
          <SendHorizontal className="size-5" />
        </button>
      </div>
    </div>
  );
}
