import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor, Decider } from '../core/event.js';
import { userMessages } from '../users/user-vocabulary.js';
import type { BugEvent } from './bug-events.js';
import {
  type BugDiscussion,
  type CommentCommand,
  type CommentEvent,
  type CommentWrite,
  commentDecider,
  commentLimits,
  commentMessages,
} from './comments.js';
import {
  admin,
  aReportedBug,
  assigned,
  BUG,
  developer,
  NOW,
  otherDeveloper,
  otherTester,
  reported,
  tester,
} from './decide.fixture.js';
import { bugMessages } from './permissions.js';

// Comments are decided over the whole bug stream: the bug's events say who may see it.
const commentsOverTheStream = commentDecider as Decider<BugDiscussion, CommentCommand, CommentEvent | BugEvent>;
const { given } = deciderSpec(commentsOverTheStream);

const auditor: Actor = { id: 'aud-1', role: 'auditor' };
/** The roles the write side knows for the people a comment may mention. */
const known: CommentWrite['mentionedRoles'] = {
  [tester.id]: { role: 'tester', name: 'Tess Tester' },
  [developer.id]: { role: 'developer', name: 'Dev One' },
  [otherDeveloper.id]: { role: 'developer', name: 'Dev Two' },
  [otherTester.id]: { role: 'tester', name: 'Tom Tester' },
  [admin.id]: { role: 'admin', name: 'Ada Admin' },
  [auditor.id]: { role: 'auditor', name: 'Aud Itor' },
};

type Write = Partial<Pick<CommentWrite, 'body' | 'mentions' | 'mentionedRoles'>>;
const write = (commentId: string, over: Write): CommentWrite => ({
  bugId: BUG,
  commentId,
  body: 'It fails on Firefox too',
  mentions: [],
  mentionedRoles: known,
  ...over,
});
const add = (commentId: string, over: Write = {}, actor: Actor | null = tester): CommentCommand => ({
  type: 'AddComment',
  data: write(commentId, over),
  metadata: { actor, now: NOW },
});
const edit = (commentId: string, over: Write = {}, actor: Actor | null = tester): CommentCommand => ({
  type: 'EditComment',
  data: write(commentId, over),
  metadata: { actor, now: NOW },
});
const remove = (commentId: string, actor: Actor | null = tester): CommentCommand => ({
  type: 'DeleteComment',
  data: { bugId: BUG, commentId },
  metadata: { actor, now: NOW },
});

/** As the store hands events to evolve: the author is the event's actor. */
const by = <E extends CommentEvent>(actor: Actor, event: E, occurredAt = '2030-06-01T08:00:00.000Z') =>
  Object.assign({}, event, { metadata: { actorId: actor.id, occurredAt } });
const added = (commentId: string, author: Actor, body = 'It fails on Firefox too', mentions: string[] = []) =>
  by(author, { type: 'CommentAdded', data: { bugId: BUG, commentId, body, mentions } });
const edited = (commentId: string, author: Actor, body: string, mentions: string[] = []) =>
  by(author, { type: 'CommentEdited', data: { bugId: BUG, commentId, body, mentions } });
const deleted = (commentId: string, actor: Actor) =>
  by(actor, { type: 'CommentDeleted', data: { bugId: BUG, commentId } });
const bugDeleted: BugEvent = { type: 'BugDeleted', data: { bugId: BUG } };

describe('AddComment', () => {
  describe('when the bug has no comments', () => {
    it('adds the comment, its body trimmed and each mention once', () => {
      given(...aReportedBug())
        .when(add('c1', { body: '  It fails on Firefox too \n', mentions: [developer.id, admin.id, developer.id] }))
        .then([
          {
            type: 'CommentAdded',
            data: { bugId: BUG, commentId: 'c1', body: 'It fails on Firefox too', mentions: [developer.id, admin.id] },
          },
        ]);
    });

    it('lets whoever may see the bug comment: its reporter, its developers, an admin', () => {
      for (const actor of [tester, developer, admin]) {
        given(...aReportedBug())
          .when(add('c1', {}, actor))
          .then([
            {
              type: 'CommentAdded',
              data: { bugId: BUG, commentId: 'c1', body: 'It fails on Firefox too', mentions: [] },
            },
          ]);
      }
    });

    it('refuses whoever may not see the bug, with the view message', () => {
      for (const actor of [otherTester, otherDeveloper]) {
        given(...aReportedBug())
          .when(add('c1', {}, actor))
          .thenThrows('forbidden', bugMessages.noPermissionToView);
      }
    });

    it('refuses an auditor, who sees the bug (they change nothing, ADR 012)', () => {
      given(...aReportedBug())
        .when(add('c1', {}, auditor))
        .thenThrows('forbidden', userMessages.readOnlyRole);
    });

    it('refuses an anonymous caller', () => {
      given(...aReportedBug())
        .when(add('c1', {}, null))
        .thenThrows('unauthorized', 'Not authorized, no token');
    });

    it('refuses a blank body', () => {
      for (const body of ['', '  \n\t ']) {
        given(...aReportedBug())
          .when(add('c1', { body }))
          .thenThrows('validation', commentMessages.bodyRequired, [
            { field: 'body', message: 'Comment cannot be empty' },
          ]);
      }
    });

    it(`keeps a body of ${commentLimits.bodyMax} characters once trimmed, and refuses a longer one`, () => {
      given(...aReportedBug())
        .when(add('c1', { body: ` ${'x'.repeat(commentLimits.bodyMax)} ` }))
        .thenEvents();
      given(...aReportedBug())
        .when(add('c1', { body: 'x'.repeat(commentLimits.bodyMax + 1) }))
        .thenThrows('validation', commentMessages.bodyTooLong, [
          { field: 'body', message: 'Comment cannot exceed 10000 characters' },
        ]);
    });

    it(`mentions at most ${commentLimits.mentionsMax} people, each counted once`, () => {
      const people = Array.from({ length: commentLimits.mentionsMax + 1 }, (_, i) => `admin-${i}`);
      const roles = Object.fromEntries(people.map((id) => [id, { role: 'admin' as const, name: id }]));
      const most = people.slice(0, commentLimits.mentionsMax);
      given(...aReportedBug())
        .when(add('c1', { mentions: [...most, most[0] ?? ''], mentionedRoles: roles }))
        .thenEvents();
      given(...aReportedBug())
        .when(add('c1', { mentions: people, mentionedRoles: roles }))
        .thenThrows('validation', commentMessages.tooManyMentions, [
          { field: 'mentions', message: 'A comment can mention at most 50 people' },
        ]);
    });

    it('mentions anyone who may see the bug, an auditor too', () => {
      const [event] = given(...aReportedBug())
        .when(add('c1', { mentions: [tester.id, developer.id, admin.id, auditor.id] }, developer))
        .thenEvents();
      expect(event?.data).toMatchObject({ mentions: [tester.id, developer.id, admin.id, auditor.id] });
    });

    it('refuses to mention someone who may not see the bug, naming each by name, else by id', () => {
      given(...aReportedBug())
        .when(add('c1', { mentions: [developer.id, otherDeveloper.id, 'ghost', otherTester.id] }))
        .thenThrows('validation', commentMessages.cannotMention('Dev Two, ghost, Tom Tester'), [
          {
            field: 'mentions',
            message: 'Cannot mention someone who cannot see this bug: Dev Two, ghost, Tom Tester',
          },
        ]);
      given(...aReportedBug())
        .when(add('c1', { mentions: ['nameless'], mentionedRoles: { nameless: { role: 'tester', name: '' } } }))
        .thenThrows('validation', commentMessages.cannotMention('nameless'));
    });

    it('refuses to mention someone a private project is hidden from, and is 404 to an author it is hidden from (issue 35)', () => {
      const inVault = () => [reported({ projectId: 'sec', projectNumber: 1 }), assigned(developer.id)];
      given(...inVault())
        .when(
          add('c1', {
            mentions: [admin.id],
            mentionedRoles: { [admin.id]: { role: 'admin', name: 'Ada Admin', hiddenProjects: [] } },
          }),
        )
        .thenEvents();
      given(...inVault())
        .when(
          add('c1', {
            mentions: [otherTester.id],
            mentionedRoles: { [otherTester.id]: { role: 'tester', name: 'Tom Tester', hiddenProjects: ['sec'] } },
          }),
        )
        .thenThrows('validation', commentMessages.cannotMention('Tom Tester'));
      // The reporter after leaving the project: the bug is not there for them.
      given(...inVault())
        .when(add('c1', {}, { ...tester, hiddenProjects: ['sec'] }))
        .thenThrows('not_found', bugMessages.notFound);
    });

    it('checks the body before the mentions', () => {
      given(...aReportedBug())
        .when(add('c1', { body: ' ', mentions: ['ghost'] }))
        .thenThrows('validation', commentMessages.bodyRequired);
    });
  });

  describe('when the comment was already added', () => {
    it('adds nothing for the same id again (a retried request)', () => {
      given(...aReportedBug(), added('c1', tester))
        .when(add('c1'))
        .thenNothing();
    });

    it('adds the next comment beside it', () => {
      given(...aReportedBug(), added('c1', tester))
        .when(add('c2', { body: 'Still broken' }, developer))
        .then([{ type: 'CommentAdded', data: { bugId: BUG, commentId: 'c2', body: 'Still broken', mentions: [] } }]);
    });
  });

  describe('when the bug does not exist', () => {
    it('is not found, never reported or deleted', () => {
      given()
        .when(add('c1', {}, admin))
        .thenThrows('not_found', bugMessages.notFound);
      given(...aReportedBug(), bugDeleted)
        .when(add('c1', {}, admin))
        .thenThrows('not_found', bugMessages.notFound);
    });
  });
});

describe('EditComment', () => {
  describe('when the bug has no comments', () => {
    it('is not found', () => {
      given(...aReportedBug())
        .when(edit('c1'))
        .thenThrows('not_found', commentMessages.notFound);
    });
  });

  describe('when the comment exists', () => {
    const withComment = () => [...aReportedBug(), added('c1', developer, 'Fails on Firefox', [tester.id])];

    it('edits it for its author, the body trimmed and each mention once', () => {
      given(...withComment())
        .when(edit('c1', { body: ' Fails on Firefox 128 ', mentions: [admin.id, admin.id] }, developer))
        .then([
          {
            type: 'CommentEdited',
            data: { bugId: BUG, commentId: 'c1', body: 'Fails on Firefox 128', mentions: [admin.id] },
          },
        ]);
    });

    it('edits nothing when the body and the mentions are the same', () => {
      given(...withComment())
        .when(edit('c1', { body: '  Fails on Firefox  ', mentions: [tester.id, tester.id] }, developer))
        .thenNothing();
    });

    it('edits when only the mentions change', () => {
      given(...withComment())
        .when(edit('c1', { body: 'Fails on Firefox', mentions: [] }, developer))
        .then([
          { type: 'CommentEdited', data: { bugId: BUG, commentId: 'c1', body: 'Fails on Firefox', mentions: [] } },
        ]);
    });

    it('compares with the last edit, not the first text', () => {
      given(...withComment(), edited('c1', developer, 'Fails on Firefox 128', [tester.id]))
        .when(edit('c1', { body: 'Fails on Firefox 128', mentions: [tester.id] }, developer))
        .thenNothing();
    });

    it('refuses anyone but the author, an admin too', () => {
      for (const actor of [admin, tester]) {
        given(...withComment())
          .when(edit('c1', {}, actor))
          .thenThrows('forbidden', commentMessages.notAuthor);
      }
    });

    it('checks the text as an added comment is checked', () => {
      given(...withComment())
        .when(edit('c1', { body: ' ' }, developer))
        .thenThrows('validation', commentMessages.bodyRequired);
      given(...withComment())
        .when(edit('c1', { body: 'x'.repeat(commentLimits.bodyMax + 1) }, developer))
        .thenThrows('validation', commentMessages.bodyTooLong);
      given(...withComment())
        .when(edit('c1', { mentions: [otherTester.id] }, developer))
        .thenThrows('validation', commentMessages.cannotMention('Tom Tester'));
    });

    it('refuses an author who may no longer see the bug, with the view message', () => {
      const unassigned: BugEvent = { type: 'DevelopersUnassigned', data: { bugId: BUG, developerIds: [developer.id] } };
      given(...withComment(), unassigned)
        .when(edit('c1', {}, developer))
        .thenThrows('forbidden', bugMessages.noPermissionToView);
    });
  });

  describe('when the comment was deleted', () => {
    it('is not found for its author, and still not theirs for anyone else', () => {
      given(...aReportedBug(), added('c1', developer), deleted('c1', developer))
        .when(edit('c1', {}, developer))
        .thenThrows('not_found', commentMessages.notFound);
      given(...aReportedBug(), added('c1', developer), deleted('c1', developer))
        .when(edit('c1', {}, admin))
        .thenThrows('forbidden', commentMessages.notAuthor);
    });
  });

  describe('when the bug was deleted', () => {
    it('is not found', () => {
      given(...aReportedBug(), added('c1', developer), bugDeleted)
        .when(edit('c1', {}, developer))
        .thenThrows('not_found', bugMessages.notFound);
    });
  });
});

describe('DeleteComment', () => {
  describe('when the bug has no comments', () => {
    it('is not found', () => {
      given(...aReportedBug())
        .when(remove('c1', admin))
        .thenThrows('not_found', commentMessages.notFound);
    });
  });

  describe('when the comment exists', () => {
    const withComment = () => [...aReportedBug(), added('c1', developer)];

    it('deletes it for its author', () => {
      given(...withComment())
        .when(remove('c1', developer))
        .then([{ type: 'CommentDeleted', data: { bugId: BUG, commentId: 'c1' } }]);
    });

    it('deletes it for an admin, whoever wrote it', () => {
      given(...withComment())
        .when(remove('c1', admin))
        .then([{ type: 'CommentDeleted', data: { bugId: BUG, commentId: 'c1' } }]);
    });

    it('refuses anyone else who sees the bug, the reporter too', () => {
      given(...withComment())
        .when(remove('c1', tester))
        .thenThrows('forbidden', commentMessages.cannotDelete);
    });

    it('refuses an auditor and an anonymous caller before anything else', () => {
      given(...withComment())
        .when(remove('c1', auditor))
        .thenThrows('forbidden', userMessages.readOnlyRole);
      given(...withComment())
        .when(remove('c1', null))
        .thenThrows('unauthorized', 'Not authorized, no token');
    });
  });

  describe('when the comment was deleted', () => {
    it('deletes nothing again (a retried request)', () => {
      given(...aReportedBug(), added('c1', developer), deleted('c1', developer))
        .when(remove('c1', developer))
        .thenNothing();
    });
  });

  describe('when the bug was deleted', () => {
    it('is not found', () => {
      given(...aReportedBug(), added('c1', developer), bugDeleted)
        .when(remove('c1', admin))
        .thenThrows('not_found', bugMessages.notFound);
    });
  });
});

describe('the folded state', () => {
  it('keeps each comment with its author and times; a deleted one keeps its place, empty', () => {
    const { state } = given(
      ...aReportedBug(),
      by(
        developer,
        { type: 'CommentAdded', data: { bugId: BUG, commentId: 'c1', body: 'First', mentions: [tester.id] } },
        '2030-06-01T08:00:00.000Z',
      ),
      added('c2', tester, 'Second'),
      by(
        developer,
        { type: 'CommentEdited', data: { bugId: BUG, commentId: 'c1', body: 'First, fixed', mentions: [] } },
        '2030-06-02T09:00:00.000Z',
      ),
      deleted('c2', admin),
    );
    expect([...state.comments.values()]).toEqual([
      {
        id: 'c1',
        authorId: developer.id,
        body: 'First, fixed',
        mentions: [],
        deleted: false,
        createdAt: '2030-06-01T08:00:00.000Z',
        editedAt: '2030-06-02T09:00:00.000Z',
      },
      {
        id: 'c2',
        authorId: tester.id,
        body: '',
        mentions: [],
        deleted: true,
        createdAt: '2030-06-01T08:00:00.000Z',
        editedAt: null,
      },
    ]);
  });

  it('keeps the first author of an id, and ignores edits of a comment it never saw', () => {
    const { state } = given(
      ...aReportedBug(),
      added('c1', developer, 'Mine'),
      added('c1', admin, 'Theirs'),
      edited('c9', admin, 'Nothing here'),
    );
    expect(state.comments.get('c1')).toMatchObject({ authorId: developer.id, body: 'Mine' });
    expect(state.comments.has('c9')).toBe(false);
  });

  it('leaves the bug as it was: a comment is not a change to it', () => {
    const { state } = given(...aReportedBug());
    const commented = commentsOverTheStream.evolve(state, added('c1', developer));
    expect(commented.bug).toBe(state.bug);
    expect(commentsOverTheStream.evolve(commented, deleted('c1', developer)).bug).toBe(state.bug);
  });
});
