import { memo, useMemo } from 'react';
import Markdown, { type Options } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { splitBugRefs } from '../../lib/bug-refs';
import { components } from './markdown-components';

/**
 * Markdown someone else wrote (a comment, the AI assistant's answer) as React elements,
 * safely: react-markdown builds elements, never HTML strings, and without rehype-raw any
 * HTML in the text (a `<script>`, an `<img onerror>`) is shown as the characters it is
 * made of. Links keep only absolute http(s) targets (and mailto where asked) and never
 * pass the page's referrer or rank; a link to anything else is its text. Images are shown
 * as links (the text loads nothing by itself); headings are bold lines, so the text cannot
 * add to the page's outline.
 */

export type SafeUrlOptions = { allowMailto?: boolean };

/** The URL if it is an absolute http(s) URL (or mailto, when allowed), else null (the attribute is dropped). */
export function safeMarkdownUrl(raw: string, options: SafeUrlOptions = {}): string | null {
  const value = raw.trim();
  if (!value || [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol === 'mailto:') return options.allowMailto ? url.href : null;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return url.href;
  return null;
}

const httpOnly = (raw: string) => safeMarkdownUrl(raw);
const httpOrMailto = (raw: string) => safeMarkdownUrl(raw, { allowMailto: true });

/** What markdown may become; anything else is unwrapped to its text. */
const allowedElements = [
  'p',
  'br',
  'strong',
  'em',
  'del',
  'a',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'input',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
  'span',
  'img',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'sup',
];

/** The markdown tree as the remark plugins below see it (mdast, loosely). */
export type MdNode = { type: string; value?: string; children?: MdNode[]; data?: Record<string, unknown> };

/**
 * Runs `split` on every plain text of the tree (never inside links, inline code or code
 * blocks, which have no text children) and puts what it answers in its place.
 */
export function replaceText(tree: MdNode, split: (text: string) => MdNode[] | null): void {
  const visit = (node: MdNode) => {
    if (!node.children || node.type === 'link' || node.type === 'linkReference') return;
    const children: MdNode[] = [];
    for (const child of node.children) {
      if (child.type !== 'text' || typeof child.value !== 'string') {
        visit(child);
        children.push(child);
        continue;
      }
      children.push(...(split(child.value) ?? [child]));
    }
    node.children = children;
  };
  visit(tree);
}

/** A remark plugin: `#42` and `WEB-7` in plain text link to the bug (opened in the reader's role's page, if they may see it). */
function remarkBugRefs() {
  return (tree: MdNode) =>
    replaceText(tree, (text) => {
      const parts = splitBugRefs(text);
      if (parts.every((part) => part.kind === 'text')) return null;
      return parts.map(
        (part): MdNode =>
          part.kind === 'text'
            ? { type: 'text', value: part.text }
            : {
                type: 'bugRef',
                data: { hName: 'span', hProperties: { dataBugRef: part.ref } },
                children: [{ type: 'text', value: part.label }],
              },
      );
    });
}

type PluginList = NonNullable<Options['remarkPlugins']>;

export type SafeMarkdownProps = {
  text: string;
  /** Also keep `mailto:` links (comments); otherwise http(s) only. */
  allowMailto?: boolean;
  /** `#42` links to bug 42. */
  linkBugRefs?: boolean;
  /** More remark plugins (run after GFM and line breaks). */
  remarkPlugins?: PluginList;
  className?: string;
  testId?: string;
};

export const SafeMarkdown = memo(function SafeMarkdown({
  text,
  allowMailto = false,
  linkBugRefs = false,
  remarkPlugins,
  className = 'space-y-2 text-sm leading-6 break-words text-slate-700 [overflow-wrap:anywhere]',
  testId,
}: SafeMarkdownProps) {
  const plugins = useMemo<PluginList>(
    () => [remarkGfm, remarkBreaks, ...(linkBugRefs ? [remarkBugRefs] : []), ...(remarkPlugins ?? [])],
    [linkBugRefs, remarkPlugins],
  );
  return (
    <div className={className} data-testid={testId}>
      <Markdown
        remarkPlugins={plugins}
        urlTransform={allowMailto ? httpOrMailto : httpOnly}
        allowedElements={allowedElements}
        unwrapDisallowed
        components={components}
      >
        {text}
      </Markdown>
    </div>
  );
});
