import { projectionSpec, recorded } from '@bugtrail/testing/projections';
import { describe, expect, it } from 'vitest';
import { commentsProjection } from './comments.projection.js';

const { given } = projectionSpec(commentsProjection);
const added = (commentId: string, body: string, bugId = 'b1') =>
  recorded('CommentAdded', { bugId, commentId, body, mentions: ['u2'] }, { actorId: 'u1' });

describe('comments, one handler per event', () => {
  it('CommentAdded: a row by its author, at its position, and the bug’s topic', () => {
    const event = added('c1', 'Seen on Firefox too');
    given()
      .when(event)
      .then({
        writes: [
          {
            kind: 'add',
            row: {
              bug_id: 'b1',
              id: 'c1',
              author_id: 'u1',
              body: 'Seen on Firefox too',
              mentions: ['u2'],
              created_at: event.metadata.occurredAt,
              position: event.position,
            },
          },
        ],
        bugs: new Set(['b1']),
      });
  });

  it('CommentEdited: the new text and mentions, with when it was edited', () => {
    const edit = recorded(
      'CommentEdited',
      { bugId: 'b1', commentId: 'c1', body: 'Firefox and Safari', mentions: [] },
      { occurredAt: '2026-11-29T13:00:00.000Z' },
    );
    const changes = given().when(edit).changes();
    expect(changes.writes).toEqual([
      {
        kind: 'edit',
        bugId: 'b1',
        id: 'c1',
        body: 'Firefox and Safari',
        mentions: [],
        editedAt: '2026-11-29T13:00:00.000Z',
      },
    ]);
  });

  it('CommentDeleted: emptied after whatever the batch did to it before, in event order', () => {
    const changes = given(added('c1', 'Seen on Firefox too'))
      .when(recorded('CommentDeleted', { bugId: 'b1', commentId: 'c1' }))
      .changes();
    expect(changes.writes.map((w) => w.kind)).toEqual(['add', 'delete']);
    expect(changes.bugs).toEqual(new Set(['b1']));
  });

  it('names each bug touched once, and nothing for other events', () => {
    const changes = given(added('c1', 'First remark', 'b1'), added('c2', 'Second remark', 'b2'))
      .when(added('c3', 'Third remark', 'b1'), recorded('ViewDeleted', { viewId: 'v1', userId: 'u1' }))
      .changes();
    expect(changes.bugs).toEqual(new Set(['b1', 'b2']));
    expect(changes.writes).toHaveLength(3);
  });
});
