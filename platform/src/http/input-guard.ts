import { createMiddleware } from 'hono/factory';
import { HttpError } from './errors.js';

export const INVALID_CHARACTERS_MESSAGE = 'Invalid characters in request';

/** A NUL, or a UTF-16 surrogate without its partner. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it looks for
const badCharacter = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasInvalidCharacters(text: string): boolean {
  return badCharacter.test(text);
}

/** Every string and key of a parsed JSON value, depth-first; true at the first bad one. */
export function jsonHasInvalidCharacters(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (badCharacter.test(item)) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, element] of Object.entries(item)) {
        if (badCharacter.test(key)) return true;
        stack.push(element);
      }
    }
  }
  return false;
}

/** Decodes one percent-encoded component; malformed encodings (and invalid UTF-8) are null. */
function decode(component: string, plusIsSpace: boolean): string | null {
  try {
    return decodeURIComponent(plusIsSpace ? component.replace(/\+/g, ' ') : component);
  } catch {
    return null;
  }
}

/** True when the raw path or query carries a NUL, a lone surrogate or a malformed %-encoding. */
export function urlHasInvalidCharacters(rawUrl: string): boolean {
  const afterOrigin = rawUrl.replace(/^[a-z][\w+.-]*:\/\/[^/?#]*/i, '');
  const hash = afterOrigin.indexOf('#');
  const target = hash === -1 ? afterOrigin : afterOrigin.slice(0, hash);
  const question = target.indexOf('?');
  const path = question === -1 ? target : target.slice(0, question);
  const query = question === -1 ? '' : target.slice(question + 1);
  const parts: Array<string | null> = [decode(path, false)];
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    parts.push(decode(eq === -1 ? pair : pair.slice(0, eq), true));
    if (eq !== -1) parts.push(decode(pair.slice(eq + 1), true));
  }
  return parts.some((part) => part === null || badCharacter.test(part));
}

/**
 * Mounted first by both apps: a NUL or an unpaired surrogate in the path or query (raw or
 * percent-encoded), or a malformed percent-encoding, is a 400 before any route sees it.
 */
export function rejectInvalidCharacters() {
  return createMiddleware(async (c, next) => {
    if (urlHasInvalidCharacters(c.req.url)) throw new HttpError(400, INVALID_CHARACTERS_MESSAGE);
    await next();
  });
}
