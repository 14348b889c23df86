import { memo, useMemo } from 'react';
import {
  type MdNode,
  replaceText,
  SafeMarkdown,
  type SafeMarkdownProps,
  safeMarkdownUrl,
} from '../markdown/safe-markdown';
import { type Person, splitMentions } from './mentions';

/**
 * A comment's markdown, through the app's safe renderer (components/markdown): no HTML,
 * links http(s) and mailto only, images as links, headings as bold lines (the bug's title
 * is the page's only h1). `@Name` of the people the comment mentions is highlighted,
 * yours in amber.
 */

/** The URL if it is an absolute http(s) or mailto URL, else null (the attribute is dropped). */
export const safeCommentUrl = (raw: string): string | null => safeMarkdownUrl(raw, { allowMailto: true });

const mentionClass = 'rounded bg-brand-100 px-0.5 font-semibold text-brand-800';
const selfMentionClass = 'rounded bg-amber-100 px-0.5 font-semibold text-amber-900';

/** A remark plugin: `@Name` in plain text (not in links or code) becomes a highlighted span. */
function remarkMentions(options: { people: readonly Person[]; selfId: string | undefined }) {
  return (tree: MdNode) =>
    replaceText(tree, (text) =>
      splitMentions(text, options.people).map(
        (part): MdNode =>
          part.kind === 'text'
            ? { type: 'text', value: part.text }
            : {
                type: 'mention',
                data: {
                  hName: 'span',
                  hProperties: {
                    className: part.person._id === options.selfId ? selfMentionClass : mentionClass,
                    dataMention: part.person._id,
                  },
                },
                children: [{ type: 'text', value: part.text }],
              },
      ),
    );
}

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
  const remarkPlugins = useMemo<NonNullable<SafeMarkdownProps['remarkPlugins']>>(
    () => [[remarkMentions, { people: mentioned, selfId }]],
    [mentioned, selfId],
  );
  return <SafeMarkdown text={body} allowMailto remarkPlugins={remarkPlugins} testId="comment-body" />;
});
