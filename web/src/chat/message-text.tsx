import { Link } from '@tanstack/react-router';
import { Fragment } from 'react';
import { splitBugRefs } from '../lib/bug-refs';
import { type Inline, type MentionTarget, parseMessage } from './safe-text';

/**
 * Renders a message through the safe parser: React text nodes and http(s) anchors only.
 * Never dangerouslySetInnerHTML.
 */
export function MessageText({
  content,
  mentions,
  selfId,
}: {
  content: string;
  mentions: MentionTarget[];
  selfId?: string;
}) {
  const blocks = parseMessage(content, mentions);
  return (
    <div className="space-y-1.5 break-words whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="message-text">
      {blocks
        .map((block, position) => ({ block, key: `b${position}` }))
        .map(({ block, key }) =>
          block.kind === 'codeblock' ? (
            <pre
              key={key}
              className="overflow-x-auto rounded-md bg-slate-900/90 px-3 py-2 font-mono text-xs text-slate-100"
            >
              {block.text}
            </pre>
          ) : (
            <p key={key}>
              <Inlines nodes={block.children} selfId={selfId} />
            </p>
          ),
        )}
    </div>
  );
}

function Inlines({ nodes, selfId }: { nodes: Inline[]; selfId?: string | undefined }) {
  return (
    <>
      {nodes
        .map((node, position) => ({ node, key: `n${position}` }))
        .map(({ node, key }) => {
          switch (node.kind) {
            case 'text':
              return <BugRefs key={key} text={node.text} />;
            case 'code':
              return (
                <code key={key} className="rounded bg-black/10 px-1 py-px font-mono text-[0.85em]">
                  {node.text}
                </code>
              );
            case 'bold':
              return (
                <strong key={key} className="font-semibold">
                  <Inlines nodes={node.children} selfId={selfId} />
                </strong>
              );
            case 'italic':
              return (
                <em key={key}>
                  <Inlines nodes={node.children} selfId={selfId} />
                </em>
              );
            case 'link':
              return (
                <a
                  key={key}
                  href={node.href}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="font-medium underline underline-offset-2"
                >
                  <Inlines nodes={node.children} selfId={selfId} />
                </a>
              );
            case 'mention':
              return (
                <span
                  key={key}
                  data-mention={node.userId}
                  className={
                    node.userId === selfId
                      ? 'rounded bg-amber-200 px-0.5 font-semibold text-amber-900'
                      : 'rounded bg-brand-100/80 px-0.5 font-semibold text-brand-800'
                  }
                >
                  {node.text}
                </span>
              );
            default:
              return null;
          }
        })}
    </>
  );
}

/** `#42` and `WEB-7` in a message link to the bug (opened in the reader's role's page, if they may see it). */
function BugRefs({ text }: { text: string }) {
  const parts = splitBugRefs(text);
  if (parts.every((part) => part.kind === 'text')) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        part.kind === 'bug' ? (
          <Link
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move
            key={i}
            to="/bugs/$number"
            params={{ number: part.ref }}
            className="font-medium underline underline-offset-2"
          >
            {part.label}
          </Link>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
