import { projectionSpec, recorded } from '@bugtrail/testing/projections';
import { describe, expect, it } from 'vitest';
import { viewsProjection } from './views.projection.js';

const { given } = projectionSpec(viewsProjection);
const saved = (viewId: string, name: string, userId = 'u1') =>
  recorded('ViewSaved', { viewId, userId, name, path: '/admin/bugs', query: 'status=Open' });
const deleted = (viewId: string, userId = 'u1') => recorded('ViewDeleted', { viewId, userId });
const row = (event: ReturnType<typeof saved>, name: string, viewId: string, userId = 'u1') => ({
  userId,
  id: viewId,
  row: {
    user_id: userId,
    id: viewId,
    name,
    path: '/admin/bugs',
    query: 'status=Open',
    created_at: event.metadata.occurredAt,
    position: event.position,
  },
});

describe('saved views, one handler per event', () => {
  it('ViewSaved: the view as saved, by its owner and id', () => {
    const event = saved('v1', 'Open ones');
    given()
      .when(event)
      .then(new Map([['u1\u0000v1', row(event, 'Open ones', 'v1')]]));
  });

  it('ViewDeleted: the view is gone, whatever the batch said of it before', () => {
    given(saved('v1', 'Open ones'))
      .when(deleted('v1'))
      .then(new Map([['u1\u0000v1', { userId: 'u1', id: 'v1', row: null }]]));
  });

  it('keeps two people’s views with the same id apart', () => {
    const mine = saved('v1', 'Mine', 'u1');
    const theirs = saved('v1', 'Theirs', 'u2');
    given(mine)
      .when(theirs)
      .then(
        new Map([
          ['u1\u0000v1', row(mine, 'Mine', 'v1', 'u1')],
          ['u2\u0000v1', row(theirs, 'Theirs', 'v1', 'u2')],
        ]),
      );
  });

  it('reads nothing from events of other types', () => {
    const changes = given()
      .when(recorded('InviteCodeRevoked', { codeId: 'c1' }))
      .changes();
    expect(changes.size).toBe(0);
    expect(viewsProjection.handles).toEqual(['ViewSaved', 'ViewDeleted']);
  });
});
