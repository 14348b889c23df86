import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CommentMarkdown, safeCommentUrl } from './comment-markdown';
import { checkCommentBody, commentTexts } from './comments-api';
import { filterCandidates, mentionCandidates, mentionQueryAt, mentionsStillIn, splitMentions } from './mentions';

const ada = { _id: 'u-ada', name: 'Ada Admin', role: 'admin' };
const otto = { _id: 'u-otto', name: 'Otto Auditor', role: 'auditor' };
const tess = { _id: 'u-tess', name: 'Tess Tester', role: 'tester' };
const dana = { _id: 'u-dana', name: 'Dana Developer', role: 'developer' };
const lee = { _id: 'u-lee', name: 'Lee Developer', role: 'developer' };
const other = { _id: 'u-other', name: 'Olga Tester', role: 'tester' };

describe('who may be mentioned', () => {
  const directory = [
    ada,
    otto,
    tess,
    dana,
    lee,
    other,
    { _id: 'u-gone', name: 'Gone Admin', role: 'admin', deactivated: true },
  ];

  it('offers the assignees, the reporter, then admins and auditors; never the writer, others or the deactivated', () => {
    const offered = mentionCandidates({ directory, reporter: tess, assignees: [dana], selfId: tess._id });
    expect(offered.map((p) => [p.name, p.reason])).toEqual([
      ['Dana Developer', 'Assignee'],
      ['Ada Admin', 'Admin'],
      ['Otto Auditor', 'Auditor'],
    ]);
    const asAdmin = mentionCandidates({ directory, reporter: tess, assignees: [dana], selfId: ada._id });
    expect(asAdmin.map((p) => p.name)).toEqual(['Dana Developer', 'Tess Tester', 'Otto Auditor']);
  });

  it('still offers the bug’s own people when the directory cannot be read', () => {
    const offered = mentionCandidates({ directory: [], reporter: tess, assignees: [dana, lee], selfId: undefined });
    expect(offered.map((p) => p.name)).toEqual(['Dana Developer', 'Lee Developer', 'Tess Tester']);
  });

  it('ranks names that start with the query first', () => {
    const people = [ada, dana, lee, otto];
    expect(filterCandidates(people, 'dev').map((p) => p.name)).toEqual(['Dana Developer', 'Lee Developer']);
    expect(filterCandidates(people, 'd').map((p) => p.name)).toEqual([
      'Dana Developer',
      'Lee Developer',
      'Ada Admin',
      'Otto Auditor',
    ]);
    expect(filterCandidates(people, 'dana d').map((p) => p.name)).toEqual(['Dana Developer']);
    expect(filterCandidates(people, 'zed')).toEqual([]);
    expect(filterCandidates(people, 'Dana Developer ')).toEqual([]);
  });
});

describe('typing and keeping mentions', () => {
  it('finds the @query before the caret, spaces included, and nothing inside an address', () => {
    expect(mentionQueryAt('Hi @', 4)).toEqual({ start: 3, query: '' });
    expect(mentionQueryAt('Hi @Dana D', 10)).toEqual({ start: 3, query: 'Dana D' });
    expect(mentionQueryAt('(@da', 4)).toEqual({ start: 1, query: 'da' });
    expect(mentionQueryAt('mail me at a@b.c', 16)).toBeNull();
    expect(mentionQueryAt('@Dana\nnext', 10)).toBeNull();
  });

  it('drops picked people whose @Name left the text', () => {
    expect(mentionsStillIn('Thanks @Dana Developer, and @Ada Admin.', [dana, ada, lee])).toEqual([dana._id, ada._id]);
    expect(mentionsStillIn('Thanks @Dana Developers', [dana])).toEqual([]);
    expect(mentionsStillIn('mail x@Dana Developer', [dana])).toEqual([]);
  });

  it('cuts a text into runs and mentions, the longest name first', () => {
    const danaD = { _id: 'u-dd', name: 'Dana' };
    expect(splitMentions('cc @Dana Developer and @Dana.', [danaD, dana])).toEqual([
      { kind: 'text', text: 'cc ' },
      { kind: 'mention', text: '@Dana Developer', person: dana },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', text: '@Dana', person: danaD },
      { kind: 'text', text: '.' },
    ]);
  });

  it('checks the body as the server does', () => {
    expect(checkCommentBody('   ')).toBe(commentTexts.empty);
    expect(checkCommentBody('x'.repeat(10_000))).toBeNull();
    expect(checkCommentBody(` ${'x'.repeat(10_000)} `)).toBeNull();
    expect(checkCommentBody('x'.repeat(10_001))).toBe(commentTexts.tooLong);
  });
});

describe('a comment’s markdown, safely', () => {
  const render = (body: string, selfId?: string) =>
    renderToStaticMarkup(createElement(CommentMarkdown, { body, mentioned: [dana, ada], selfId }));

  it('keeps only http(s) and mailto links', () => {
    expect(safeCommentUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeCommentUrl('mailto:qa@example.com')).toBe('mailto:qa@example.com');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      '/admin',
      '#top',
      'java\tscript:x',
      'vbscript:x',
    ])
      expect(safeCommentUrl(bad)).toBeNull();
  });

  it('renders markdown, shows HTML as text, and makes links inert to the page', () => {
    const html = render(
      '**Bold** and [docs](https://example.com/docs) <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[bad](javascript:alert(1))',
    );
    expect(html).toContain('<strong>Bold</strong>');
    expect(html).toContain(
      '<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer nofollow" class="font-medium',
    );
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // Only the characters: no element, no attribute, no script URL.
    expect(html).not.toMatch(/<(script|img)\b|<[^>]*(onerror|javascript:)/i);
    expect(html).toContain('<span>bad</span>');
  });

  it('highlights the mentioned people, the reader in amber, and adds no heading to the page', () => {
    const html = render('# Title\n\nping @Dana Developer and @Ada Admin, not @Lee Developer', ada._id);
    expect(html).not.toMatch(/<h[1-6]/);
    expect(html).toContain('data-mention="u-dana"');
    expect(html).toMatch(/class="[^"]*bg-amber-100[^"]*" data-mention="u-ada"/);
    expect(html).not.toContain('data-mention="u-lee"');
  });

  it('shows an image as a link to it and loads nothing', () => {
    const html = render('![screenshot](https://example.com/s.png)');
    expect(html).toContain('<a href="https://example.com/s.png"');
    expect(html).toContain('>screenshot</a>');
    expect(html).not.toContain('<img');
  });
});
