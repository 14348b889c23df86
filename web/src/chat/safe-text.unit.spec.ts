import { describe, expect, it } from 'vitest';
import { type Block, type Inline, inlineText, parseInline, parseMessage, safeHref } from './safe-text';

/** Every href the parse would render. */
function hrefs(nodes: (Inline | Block)[]): string[] {
  return nodes.flatMap((node) => {
    if (node.kind === 'link') return [node.href, ...hrefs(node.children)];
    if (node.kind === 'bold' || node.kind === 'italic' || node.kind === 'paragraph') return hrefs(node.children);
    return [];
  });
}

function textOf(blocks: Block[]): string {
  return blocks.map((b) => (b.kind === 'codeblock' ? b.text : inlineText(b.children))).join('\n');
}

describe('safeHref', () => {
  it('keeps http and https URLs', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
  });
  it('refuses every other scheme and the usual tricks', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example',
      '/relative',
      'https:alert(1)',
      'https://',
      '',
    ]) {
      expect(safeHref(bad), bad).toBeNull();
    }
  });
});

describe('parseMessage', () => {
  it('keeps markup as text: nothing but strings comes out', () => {
    const content = '<img src=x onerror="alert(1)"> <script>alert("x")</script> <a href="javascript:alert(1)">x</a>';
    const blocks = parseMessage(content);
    expect(textOf(blocks)).toBe(content);
    expect(hrefs(blocks)).toEqual([]);
  });
  it('leaves a javascript: markdown link inert, as its own characters', () => {
    for (const content of [
      '[click me](javascript:alert(1))',
      '[click me](javascript:alert%281%29)',
      '[x](JAVASCRIPT:void0)',
    ]) {
      const blocks = parseMessage(content);
      expect(hrefs(blocks), content).toEqual([]);
      expect(textOf(blocks), content).toBe(content);
    }
  });
  it('links http(s) markdown links and bare URLs', () => {
    const blocks = parseMessage('see [docs](https://example.com/docs) and https://example.org/x.');
    expect(hrefs(blocks)).toEqual(['https://example.com/docs', 'https://example.org/x']);
    expect(textOf(blocks)).toBe('see docs and https://example.org/x.');
  });
  it('does not link a URL glued to a word', () => {
    expect(hrefs(parseMessage('xhttps://example.com'))).toEqual([]);
  });
  it('renders bold, italic and code', () => {
    const [block] = parseMessage('**bold** *it* _it2_ `a<b>`');
    expect(block?.kind).toBe('paragraph');
    const kinds = (block as Extract<Block, { kind: 'paragraph' }>).children.map((n) => n.kind);
    expect(kinds).toEqual(['bold', 'text', 'italic', 'text', 'italic', 'text', 'code']);
  });
  it('keeps snake_case words and lone stars as text', () => {
    expect(parseInline('my_var_name and 2 * 3 * 4')).toEqual([{ kind: 'text', text: 'my_var_name and 2 * 3 * 4' }]);
  });
  it('does not link inside code', () => {
    expect(hrefs(parseMessage('`https://example.com`'))).toEqual([]);
    const blocks = parseMessage('before\n```js\n<b>https://x.example</b>\n```\nafter');
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph', 'codeblock', 'paragraph']);
    expect(blocks[1]).toEqual({ kind: 'codeblock', text: '<b>https://x.example</b>' });
  });
  it('marks mentions of members, longest name first', () => {
    const nodes = parseInline('hi @Ada Lovelace and @Ada!', [
      { _id: 'a', name: 'Ada' },
      { _id: 'al', name: 'Ada Lovelace' },
    ]);
    expect(nodes.filter((n) => n.kind === 'mention')).toEqual([
      { kind: 'mention', text: '@Ada Lovelace', userId: 'al' },
      { kind: 'mention', text: '@Ada', userId: 'a' },
    ]);
    expect(parseInline('mail ada@Ada', [{ _id: 'a', name: 'Ada' }])).toEqual([{ kind: 'text', text: 'mail ada@Ada' }]);
  });
});
