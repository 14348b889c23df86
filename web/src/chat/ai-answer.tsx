import { lazy, Suspense } from 'react';

/*
 * The AI assistant's answers are markdown (code blocks, lists, links), shown through the
 * app's safe renderer: no HTML, links http(s) only. The renderer (react-markdown with GFM)
 * loads on its own the first time an answer is shown; until then the answer shows as the
 * text it is (React text, inert). Human messages keep the chat's own light markup.
 */
const SafeMarkdown = lazy(() =>
  import('../components/markdown/safe-markdown').then((module) => ({ default: module.SafeMarkdown })),
);

const answerClass = 'space-y-2 leading-6 break-words [overflow-wrap:anywhere]';

export function AiAnswerText({ content }: { content: string }) {
  return (
    <Suspense
      fallback={
        <p className={`${answerClass} whitespace-pre-wrap`} data-testid="ai-answer">
          {content}
        </p>
      }
    >
      <SafeMarkdown text={content} linkBugRefs className={answerClass} testId="ai-answer" />
    </Suspense>
  );
}
