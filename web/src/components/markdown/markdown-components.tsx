import { Link } from '@tanstack/react-router';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import type { Components } from 'react-markdown';
import { isBugRef } from '../../lib/bug-refs';

/**
 * How each element the safe markdown allows is drawn: a link passes no referrer or rank
 * (a web one opens in a new tab), an image is a link to it, `#42` (a span the bug-ref
 * plugin marks) is a link to the bug, headings are bold lines, task-list boxes are disabled.
 */

function Heading({ children }: { children?: ReactNode }) {
  return <p className="font-semibold text-slate-900">{children}</p>;
}

const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800';

export const components: Components = {
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
    if (typeof bug === 'string' && isBugRef(bug)) {
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
