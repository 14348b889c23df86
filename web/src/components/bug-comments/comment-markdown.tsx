import { type ComponentPropsWithoutRef, memo, type ReactNode, useMemo } from 'react';
import Markdown, { type Components, type Options } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { type Person, splitMentions } from './mentions';

/**
 * A comment's markdown as React elements, safely: react-markdown builds elements, never
 * HTML strings, and without rehype-raw any HTML in the text (a `<script>`, an `<img
 * onerror>`) is shown as the characters it is made of. Links keep only http(s) and mailto
 * targets and never pass the page's referrer or rank; images are shown as links (a comment
 * loads nothing by itself); headings are bold lines, so a comment cannot add to the page's
 * outline (the bug's title is its only h1). `@Name` of the people the comment mentions is
 * highlighted, yours in amber.
 */

/** The URL if it is an absolute http(s) or mailto URL, else null (the attribute is dropped). */
export function safeCommentUrl(raw: string): string | null {
  const value = raw.trim();
  if (!value || [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol === 'mailto:') return url.href;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return url.href;
  return null;
}

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

type MdNode = { type: string; value?: string; children?: MdNode[]; data?: Record<string, unknown> };

const mentionClass = 'rounded bg-brand-100 px-0.5 font-semibold text-brand-800';
const selfMentionClass = 'rounded bg-amber-100 px-0.5 font-semibold text-amber-900';

/** A remark plugin: `@Name` in plain text (not in links or code) becomes a highlighted span. */
function remarkMentions(options: { people: readonly Person[]; selfId: string | undefined }) {
  const visit = (node: MdNode) => {
    if (!node.children || node.type === 'link' || node.type === 'linkReference') return;
    const children: MdNode[] = [];
    for (const child of node.children) {
      if (child.type !== 'text' || typeof child.value !== 'string') {
        visit(child);
        children.push(child);
        continue;
      }
      for (const part of splitMentions(child.value, options.people)) {
        if (part.kind === 'text') children.push({ type: 'text', value: part.text });
        else
          children.push({
            type: 'mention',
            data: {
              hName: 'span',
              hProperties: {
                className: part.person._id === options.selfId ? selfMentionClass : mentionClass,
                dataMention: part.person._id,
              },
            },
            children: [{ type: 'text', value: part.text }],
          });
      }
    }
    node.children = children;
  };
  return (tree: MdNode) => visit(tree);
}

function Heading({ children }: { children?: ReactNode }) {
  return <p className="font-semibold text-slate-900">{children}</p>;
}

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
        className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
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
    <pre className="overflow-x-auto rounded-lg bg-slate-100 px-3 py-2 font-mono text-xs leading-relaxed text-slate-800 [&_code]:bg-transparent [&_code]:p-0">
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

export const CommentMarkdown = memo(function CommentMarkdown({
  body,
  mentioned,
  selfId,
}: {
  body: string;
  /** The people this comment mentions (by its `mentions` ids), with their names. */
  mentioned: readonly Person[];
  selfId: string | undefined;
}) {
  const remarkPlugins = useMemo<NonNullable<Options['remarkPlugins']>>(
    () => [remarkGfm, remarkBreaks, [remarkMentions, { people: mentioned, selfId }]],
    [mentioned, selfId],
  );
  return (
    <div
      className="space-y-2 text-sm leading-6 break-words text-slate-700 [overflow-wrap:anywhere]"
      data-testid="comment-body"
    >
      <Markdown
        remarkPlugins={remarkPlugins}
        urlTransform={safeCommentUrl}
        allowedElements={allowedElements}
        unwrapDisallowed
        components={components}
      >
        {body}
      </Markdown>
    </div>
  );
});
