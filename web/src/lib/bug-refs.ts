/**
 * How a text names a bug (issue 35): `#42` (its number) or `WEB-7` (its key, any it has had):
 * both open `/bugs/{number or key}`, which finds it for whoever may see it. Not inside a word,
 * a URL fragment or an HTML entity (`&#42;`), nor inside a longer token (`X-WEB-7`, `WEB-7-2`).
 */
const BUG_REF = /(?<![\w&#])#(\d{1,9})\b|(?<![\w-])([A-Z][A-Z0-9]{1,9}-[1-9]\d{0,8})(?![\w-])/g;

export type TextPart = { kind: 'text'; text: string } | { kind: 'bug'; ref: string; label: string };

/** The text cut into plain runs and bug references (`ref`: the number or the key, as the route takes it). */
export function splitBugRefs(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(BUG_REF)) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ kind: 'text', text: text.slice(last, at) });
    const ref = match[1] ?? match[2]!;
    parts.push({ kind: 'bug', ref, label: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** Whether a route parameter is a bug's number or key. */
export const isBugRef = (value: string) => /^(\d{1,9}|[A-Z][A-Z0-9]{1,9}-[1-9]\d{0,8})$/.test(value);
