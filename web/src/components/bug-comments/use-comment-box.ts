import { type RefObject, useEffect } from 'react';

/**
 * The comment box's own manners: opened to edit (`autoFocus`), it takes the focus with the
 * caret after the text; and it grows with its text, up to a limit (then it scrolls).
 */
export function useCommentBox(
  box: RefObject<HTMLTextAreaElement | null>,
  text: string,
  autoFocus: boolean | undefined,
) {
  useEffect(() => {
    if (!autoFocus) return;
    const el = box.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [autoFocus, box]);

  // Grow with the text, up to a limit (then the box scrolls).
  // biome-ignore lint/correctness/useExhaustiveDependencies: measure on every text change
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(Math.max(el.scrollHeight + 2, 88), 320)}px`;
  }, [text]);
}
