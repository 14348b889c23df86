/**
 * A tiny, safe subset of markdown for chat messages. It only ever yields plain strings
 * and http(s) links: there is no way for a message to become HTML, so markup in a
 * message is shown as the characters it is made of, and a `javascript:` (or any other
 * non-http) link stays plain text.
 *
 * Supported: `inline code`, ```code blocks```, **bold**, *italic* / _italic_,
 * [label](https://…), bare https://… links, and @Name mentions of chat members.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'bold'; children: Inline[] }
  | { kind: 'italic'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'mention'; text: string; userId: string };

export type Block = { kind: 'codeblock'; text: string } | { kind: 'paragraph'; children: Inline[] };

export type MentionTarget = { _id: string; name: string };

/** The URL when it is an absolute http(s) URL, else null. */
export function safeHref(raw: string): string | null {
  const value = raw.trim();
  // Control characters and whitespace inside a scheme are the classic filter bypasses.
  if (!value || /\s/.test(value) || [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    return null;
  if (!/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  return url.href;
}

const codeFence = /```([\s\S]*?)```/g;

export function parseMessage(content: string, mentions: MentionTarget[] = []): Block[] {
  const blocks: Block[] = [];
  let last = 0;
  for (const match of content.matchAll(codeFence)) {
    const index = match.index ?? 0;
    if (index > last) pushParagraph(blocks, content.slice(last, index), mentions);
    blocks.push({ kind: 'codeblock', text: (match[1] ?? '').replace(/^[a-z0-9_-]*\n/i, '').replace(/\n$/, '') });
    last = index + match[0].length;
  }
  if (last < content.length) pushParagraph(blocks, content.slice(last), mentions);
  return blocks;
}

function pushParagraph(blocks: Block[], text: string, mentions: MentionTarget[]) {
  const trimmed = text.replace(/^\n+|\n+$/g, '');
  if (!trimmed) return;
  blocks.push({ kind: 'paragraph', children: parseInline(trimmed, mentions) });
}

type Rule = { re: RegExp; build: (m: RegExpExecArray, mentions: MentionTarget[]) => Inline | null };

const urlTail = /[.,!?;:'")\]]+$/;

const rules: Rule[] = [
  { re: /`([^`\n]+)`/y, build: (m) => ({ kind: 'code', text: m[1] ?? '' }) },
  {
    re: /\[([^\]\n]{1,200})\]\(([^()\s]{1,2000})\)/y,
    build: (m, mentions) => {
      const href = safeHref(m[2] ?? '');
      // Not an http(s) link: not a link at all; the caller keeps the raw characters.
      return href ? { kind: 'link', href, children: parseInline(m[1] ?? '', mentions, false) } : null;
    },
  },
  {
    re: /https?:\/\/[^\s<>"'`]+/iy,
    build: (m) => {
      const raw = m[0].replace(urlTail, '');
      const href = safeHref(raw);
      return href ? { kind: 'link', href, children: [{ kind: 'text', text: raw }] } : null;
    },
  },
  {
    re: /\*\*(?=\S)([^\n]*?\S)\*\*/y,
    build: (m, mentions) => ({ kind: 'bold', children: parseInline(m[1] ?? '', mentions) }),
  },
  {
    re: /\*(?=[^\s*])([^*\n]*?[^\s*])\*/y,
    build: (m, mentions) => ({ kind: 'italic', children: parseInline(m[1] ?? '', mentions) }),
  },
  {
    re: /(?<![\p{L}\p{N}_])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\p{L}\p{N}_])/uy,
    build: (m, mentions) => ({ kind: 'italic', children: parseInline(m[1] ?? '', mentions) }),
  },
];

/** How far a bare-URL match really reaches (trailing punctuation is not part of it). */
function consumed(rule: Rule, match: RegExpExecArray): number {
  if (rule === rules[2]) return match[0].replace(urlTail, '').length;
  return match[0].length;
}

export function parseInline(text: string, mentions: MentionTarget[] = [], allowLinks = true): Inline[] {
  const out: Inline[] = [];
  const sortedMentions = [...mentions].filter((m) => m.name).sort((a, b) => b.name.length - a.name.length);
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ kind: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  outer: while (i < text.length) {
    const char = text[i];
    if (char === '@' && (i === 0 || /\s|\(/.test(text[i - 1] ?? ''))) {
      for (const user of sortedMentions) {
        const candidate = text.slice(i + 1, i + 1 + user.name.length);
        const after = text[i + 1 + user.name.length];
        if (candidate === user.name && (after === undefined || /[\s.,!?;:)]/.test(after))) {
          flush();
          out.push({ kind: 'mention', text: `@${user.name}`, userId: user._id });
          i += 1 + user.name.length;
          continue outer;
        }
      }
    }
    if (char === '`' || char === '[' || char === '*' || char === '_' || char === 'h' || char === 'H') {
      for (const rule of rules) {
        if (!allowLinks && (rule === rules[1] || rule === rules[2])) continue;
        if (rule === rules[2] && i > 0 && /[\p{L}\p{N}]/u.test(text[i - 1] ?? '')) continue;
        rule.re.lastIndex = i;
        const match = rule.re.exec(text);
        if (!match) continue;
        const node = rule.build(match, sortedMentions);
        if (!node) continue;
        flush();
        out.push(node);
        i += consumed(rule, match);
        continue outer;
      }
    }
    buffer += char;
    i += 1;
  }
  flush();
  return out;
}

/** Plain text of parsed inlines (what a screen reader or a copy would give). */
export function inlineText(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      if (node.kind === 'text' || node.kind === 'code' || node.kind === 'mention') return node.text;
      return inlineText(node.children);
    })
    .join('');
}
