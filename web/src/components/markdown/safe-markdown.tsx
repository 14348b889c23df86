import { Link } from '@tanstack/react-router';
import { type ComponentPropsWithoutRef, memo, type ReactNode, useMemo } from 'react';
import Markdown, { type Components, type Options } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';

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

const bugRefPattern = /(?<![\w&#])#(\d{1,9})\b/g;

/** A remark plugin: `#42` in plain text links to bug 42 (opened in the reader's role's page, if they may see it). */
function remarkBugRefs() {
  return (tree: MdNode) =>
    replaceText(tree, (text) => {
      const parts = text.split(bugRefPattern);
      if (parts.length === 1) return null;
      return parts
        .map((part, index): MdNode | null => {
          if (index % 2 === 0) return part ? { type: 'text', value: part } : null;
          return {
            type: 'bugRef',
            data: { hName: 'span', hProperties: { dataBugRef: part } },
            children: [{ type: 'text', value: `#${part}` }],
          };
        })
        .filter((node): node is MdNode => node !== null);
    });
}

function Heading({ children }: { children?: ReactNode }) {
  return <p className="font-semibold text-slate-900">{children}</p>;
}

const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800';

const components: Components = {
  a: ({ node: _node, href, children, ...rest }) => {
    if (!href) return <span>{children}</span>;
    const isWeb = href.startsWith('http');
    return (
      <a
        {...rest}
        href={href}
        target={isWeb ? '_blank' : undefined}
        rel="noopener noreferrer nofollow"
        className={linkClass}
      >
        {children}
      </a>
    );
  },
  img: ({ src, alt }) => {
    const href = typeof src === 'string' ? src : '';
    const label = alt || href || 'image';
    if (!href) return <span>{label}</span>;
    return (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="font-medium text-brand-700 underline underline-offset-2"
      >
        {label}
      </a>
    );
  },
  span: ({ node, children, ...rest }) => {
    const bug = node?.properties?.dataBugRef;
    if (typeof bug === 'string' && /^\d{1,9}$/.test(bug)) {
      return (
        <Link to="/bugs/$number" params={{ number: bug }} className={linkClass}>
          {children}
        </Link>
      );
    }
    return <span {...rest}>{children}</span>;
  },
  h1: Heading,
  h2: Heading,
  h3: Heading,
  h4: Heading,
  h5: Heading,
  h6: Heading,
  p: ({ children }) => <p>{children}</p>,
  ul: ({ children, className }) => (
    <ul className={className?.includes('contains-task-list') ? 'list-none space-y-1 pl-1' : 'list-disc space-y-1 pl-5'}>
      {children}
    </ul>
  ),
  ol: ({ children, start }) => (
    <ol start={start} className="list-decimal space-y-1 pl-5">
      {children}
    </ol>
  ),
  blockquote: ({ children }) => (
    <blockquote className="border-l-4 border-slate-200 pl-3 text-slate-600">{children}</blockquote>
  ),
  pre: ({ children }) => (
    <pre className="max-w-full overflow-x-auto rounded-lg bg-slate-100 px-3 py-2 font-mono text-xs leading-relaxed text-slate-800 [overflow-wrap:normal] [&_code]:bg-transparent [&_code]:p-0">
      {children}
    </pre>
  ),
  code: ({ children }) => (
    <code className="rounded bg-slate-100 px-1 py-px font-mono text-[0.85em] text-slate-800">{children}</code>
  ),
  table: ({ children }) => (
    <div className="max-w-full overflow-x-auto">
      <table className="min-w-full border-collapse text-left text-sm">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th style={style} className="border border-slate-200 bg-slate-50 px-2 py-1 font-semibold">
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border border-slate-200 px-2 py-1">
      {children}
    </td>
  ),
  hr: () => <hr className="border-slate-200" />,
  input: (props: ComponentPropsWithoutRef<'input'> & { node?: unknown }) => {
    const { node: _node, ...rest } = props;
    return (
      <input
        {...rest}
        disabled
        aria-label={rest.checked ? 'Done' : 'Not done'}
        className="mr-1.5 align-[-2px] accent-lime-600"
      />
    );
  },
};

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
