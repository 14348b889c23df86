import type { KeyboardEvent } from 'react';
import type { Bug } from '../../../lib/types';

/**
 * What the admin bug page's steps and links cards share: handing the form the bug's new
 * version after each of their saves (also used by the archive control), and Enter in a
 * draft box to add it.
 */

export type Saved = { bug?: Bug } | undefined;
/** A save of ours moved the bug from version `from` to the answer's. */
export type OwnSave = { from: number; to: number };
export type OnSaved = (save: OwnSave) => void;

export const savedFrom = (bug: Bug, onSaved: OnSaved) => (answer: Saved) => {
  const to = answer?.bug?.version;
  if (typeof to === 'number') onSaved({ from: bug.version, to });
};

export const onEnter = (action: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key !== 'Enter') return;
  event.preventDefault();
  action();
};
