import { useEffect, useRef, useState } from 'react';
import { useDebounced } from './use-debounced';

/**
 * A text box that writes to the URL once typing pauses, and follows the URL when it
 * changes from elsewhere (back, "Clear filters", a saved view) without writing it back.
 */
export function useUrlText(value: string, onCommit: (text: string) => void, delayMs: number) {
  const [text, setText] = useState(value);
  const debounced = useDebounced(text.trim(), delayMs);
  const last = useRef(value);
  const commit = useRef(onCommit);
  commit.current = onCommit;
  useEffect(() => {
    if (debounced === last.current) return;
    last.current = debounced;
    commit.current(debounced);
  }, [debounced]);
  useEffect(() => {
    if (value === last.current) return;
    last.current = value;
    setText(value);
  }, [value]);
  return [text, setText] as const;
}
