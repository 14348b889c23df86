import { createMemoryHistory, createRootRoute, createRouter, RouterContextProvider } from '@tanstack/react-router';
import { type ComponentProps, createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SafeMarkdown, safeMarkdownUrl } from './safe-markdown';

/** Bug links are router links: render inside a router. */
const router = createRouter({ routeTree: createRootRoute(), history: createMemoryHistory() });
const render = (text: string, props: { allowMailto?: boolean; linkBugRefs?: boolean } = {}) =>
  renderToStaticMarkup(
    createElement(
      RouterContextProvider,
      { router } as ComponentProps<typeof RouterContextProvider>,
      createElement(SafeMarkdown, { text, ...props }),
    ),
  );

describe('safe markdown (the AI assistant’s answers)', () => {
  it('keeps absolute http(s) URLs only, mailto only where asked', () => {
    expect(safeMarkdownUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeMarkdownUrl('http://example.com')).toBe('http://example.com/');
    expect(safeMarkdownUrl('mailto:qa@example.com')).toBeNull();
    expect(safeMarkdownUrl('mailto:qa@example.com', { allowMailto: true })).toBe('mailto:qa@example.com');
    for (const bad of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'data:text/html,x',
      '/admin',
      '#top',
      'java\tscript:x',
    ])
      expect(safeMarkdownUrl(bad)).toBeNull();
  });

  it('renders code blocks, lists, emphasis and links; HTML and other schemes stay text', () => {
    const html = render(
      [
        'Here is **bold**, _italic_ and `code`:',
        '',
        '- one',
        '- two',
        '',
        '1. first',
        '',
        '```ts',
        'const a = "<b>";',
        '```',
        '',
        '[docs](https://example.com/docs) [bad](javascript:alert(1)) [mail](mailto:x@example.com)',
        '',
        '<script>alert(1)</script> <img src=x onerror=alert(1)>',
      ].join('\n'),
    );
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>italic</em>');
    expect(html).toMatch(/<ul[^>]*>\s*<li>one<\/li>/);
    expect(html).toMatch(/<ol[^>]*>\s*<li>first<\/li>/);
    expect(html).toMatch(/<pre[^>]*><code[^>]*>const a = &quot;&lt;b&gt;&quot;;/);
    expect(html).toContain('<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer nofollow"');
    expect(html).toContain('<span>bad</span>');
    expect(html).toContain('<span>mail</span>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<(script|img)\b|<[^>]*(onerror|javascript:|mailto:)/i);
  });

  it('links #42 to the bug when asked, never inside code or a link', () => {
    const html = render('See #42 and `#7` and [#9](https://example.com)', { linkBugRefs: true });
    expect(html).toMatch(/<a [^>]*href="\/bugs\/42"[^>]*>#42<\/a>/);
    expect(html).not.toContain('/bugs/7');
    expect(html).not.toContain('/bugs/9');
    expect(render('See #42')).not.toContain('/bugs/42');
  });

  it('links a bug key (WEB-7) the same way, and no lower-case word or longer token (issue 35)', () => {
    const html = render('Fixed in WEB-7, not in utf-8 or X-WEB-7', { linkBugRefs: true });
    expect(html).toMatch(/<a [^>]*href="\/bugs\/WEB-7"[^>]*>WEB-7<\/a>/);
    expect(html).not.toContain('/bugs/X-WEB');
    expect(html).not.toContain('/bugs/utf');
  });
});
