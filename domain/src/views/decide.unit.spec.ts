import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { userMessages } from '../users/user-vocabulary.js';
import { type DeleteView, type SaveView, savedViewsDecider } from './decide.js';
import type { ViewEvent } from './view.js';
import { viewLimits, viewMessages } from './view-vocabulary.js';

const { given } = deciderSpec(savedViewsDecider);
const now = '2026-03-01T09:00:00.000Z';
const tess: Actor = { id: 'tess', role: 'tester' };

const save = (over: Partial<SaveView['data']> = {}, actor: Actor | null = tess): SaveView => ({
  type: 'SaveView',
  data: { userId: 'tess', viewId: 'v1', name: 'My open bugs', path: '/tester/all-bugs', query: 'status=Open', ...over },
  metadata: { actor, now },
});
const remove = (viewId: string, actor: Actor | null = tess): DeleteView => ({
  type: 'DeleteView',
  data: { userId: 'tess', viewId },
  metadata: { actor, now },
});
const saved = (viewId: string, name: string, over: Partial<{ path: string; query: string }> = {}): ViewEvent => ({
  type: 'ViewSaved',
  data: { viewId, userId: 'tess', name, path: '/tester/all-bugs', query: '', ...over },
});
/** As the store hands events to evolve: with the time they happened. */
const at = (event: ViewEvent, occurredAt: string): ViewEvent => Object.assign({}, event, { metadata: { occurredAt } });
const deleted = (viewId: string): ViewEvent => ({ type: 'ViewDeleted', data: { viewId, userId: 'tess' } });

describe('SaveView', () => {
  describe('when the user has no views', () => {
    it('saves the view, name trimmed and the query without its "?"', () => {
      given()
        .when(save({ name: '  My open bugs  ', query: '?status=Open&q=login' }))
        .then([
          {
            type: 'ViewSaved',
            data: {
              viewId: 'v1',
              userId: 'tess',
              name: 'My open bugs',
              path: '/tester/all-bugs',
              query: 'status=Open&q=login',
            },
          },
        ]);
    });

    it('accepts an empty query, and removes only one leading "?"', () => {
      const [empty] = given()
        .when(save({ query: '' }))
        .thenEvents();
      expect(empty?.data).toMatchObject({ query: '' });
      const [bare] = given()
        .when(save({ query: '?' }))
        .thenEvents();
      expect(bare?.data).toMatchObject({ query: '' });
      const [twice] = given()
        .when(save({ query: '??a=1' }))
        .thenEvents();
      expect(twice?.data).toMatchObject({ query: '?a=1' });
    });

    it('refuses a blank or over-long name', () => {
      for (const name of ['', '   ']) {
        given()
          .when(save({ name }))
          .thenThrows('validation', viewMessages.nameRequired, [{ field: 'name', message: viewMessages.nameRequired }]);
      }
      given()
        .when(save({ name: 'x'.repeat(viewLimits.nameMax) }))
        .thenEvents();
      given()
        .when(save({ name: 'x'.repeat(viewLimits.nameMax + 1) }))
        .thenThrows('validation', viewMessages.nameTooLong);
    });

    it('refuses a path that is not one of this app', () => {
      for (const path of [
        'admin/bugs',
        '//evil.example/bugs',
        '/admin//bugs',
        'https://evil.example/',
        'javascript:alert(1)',
        '/\\evil.example',
        '/admin/bugs?status=Open',
        '/admin/bugs#top',
        '/admin bugs',
        '/admin/\nbugs',
      ]) {
        given()
          .when(save({ path }))
          .thenThrows('validation', viewMessages.pathInvalid, [{ field: 'path', message: viewMessages.pathInvalid }]);
      }
      given()
        .when(save({ path: '' }))
        .thenThrows('validation', viewMessages.pathRequired);
      given()
        .when(save({ path: `/${'a'.repeat(viewLimits.pathMax)}` }))
        .thenThrows('validation', viewMessages.pathTooLong);
      for (const path of ['/admin/bugs', '/developer/assigned-bugs', '/tester/bug/abc-123', '/']) {
        given().when(save({ path })).thenEvents();
      }
    });

    it('refuses an over-long query, or one with a fragment or a control character', () => {
      given()
        .when(save({ query: `?${'a'.repeat(viewLimits.queryMax)}` }))
        .thenEvents();
      given()
        .when(save({ query: 'a'.repeat(viewLimits.queryMax + 1) }))
        .thenThrows('validation', viewMessages.queryTooLong, [{ field: 'query', message: viewMessages.queryTooLong }]);
      for (const query of ['status=Open#x', 'q=a\tb']) {
        given().when(save({ query })).thenThrows('validation', viewMessages.queryInvalid);
      }
    });

    it('lists every field that fails, the first one as the message', () => {
      given()
        .when(save({ name: ' ', path: 'nope' }))
        .thenThrows('validation', viewMessages.nameRequired, [
          { field: 'name', message: viewMessages.nameRequired },
          { field: 'path', message: viewMessages.pathInvalid },
        ]);
    });

    it("is for the owner alone: nobody saves into another user's views", () => {
      const other: Actor = { id: 'admin-1', role: 'admin' };
      given().when(save({}, other)).thenThrows('forbidden', viewMessages.notYours);
      given().when(save({}, null)).thenThrows('forbidden', viewMessages.notYours);
    });

    it('refuses an auditor, even for their own views (they change nothing, ADR 012)', () => {
      const auditor: Actor = { id: 'tess', role: 'auditor' };
      given().when(save({}, auditor)).thenThrows('forbidden', userMessages.readOnlyRole);
    });
  });

  describe('when the user has views', () => {
    it('refuses a name already taken, in any case and spacing', () => {
      for (const name of ['My open bugs', 'MY OPEN BUGS', ' my open bugs ']) {
        given(saved('v0', 'My open bugs')).when(save({ name })).thenThrows('conflict', viewMessages.duplicateName);
      }
    });

    it('frees the name once its view is deleted', () => {
      given(saved('v0', 'My open bugs'), deleted('v0'))
        .when(save())
        .then([
          {
            type: 'ViewSaved',
            data: {
              viewId: 'v1',
              userId: 'tess',
              name: 'My open bugs',
              path: '/tester/all-bugs',
              query: 'status=Open',
            },
          },
        ]);
    });

    it(`keeps at most ${viewLimits.perUser}, and makes room when one is deleted`, () => {
      const full = Array.from({ length: viewLimits.perUser }, (_, i) => saved(`v-${i}`, `View ${i}`));
      given(...full)
        .when(save({ name: 'One too many' }))
        .thenThrows('conflict', viewMessages.limitReached);
      given(...full, deleted('v-7'))
        .when(save({ name: 'One too many' }))
        .thenEvents();
    });

    it('refuses an id already saved (a retried save is answered by the command handler)', () => {
      given(saved('v1', 'Other name')).when(save()).thenThrows('conflict', viewMessages.alreadySaved);
    });
  });
});

describe('DeleteView', () => {
  it('deletes a view of the owner', () => {
    given(saved('v1', 'Mine'))
      .when(remove('v1'))
      .then([{ type: 'ViewDeleted', data: { viewId: 'v1', userId: 'tess' } }]);
  });

  it('is 404 for a view that does not exist, or not any more', () => {
    given().when(remove('nope')).thenThrows('not_found', viewMessages.notFound);
    given(saved('v1', 'Mine'), deleted('v1')).when(remove('v1')).thenThrows('not_found', viewMessages.notFound);
  });

  it('is for the owner alone, and never an auditor', () => {
    given(saved('v1', 'Mine'))
      .when(remove('v1', { id: 'admin-1', role: 'admin' }))
      .thenThrows('forbidden', viewMessages.notYours);
    given(saved('v1', 'Mine'))
      .when(remove('v1', { id: 'tess', role: 'auditor' }))
      .thenThrows('forbidden', userMessages.readOnlyRole);
  });
});

describe('the folded state', () => {
  it('keeps views oldest first with their save time, deleted ones gone', () => {
    const { state } = given(
      at(saved('a', 'A'), '2026-01-01T00:00:00.000Z'),
      at(saved('b', 'B', { query: 'q=x' }), '2026-01-02T00:00:00.000Z'),
      saved('c', 'C'),
      deleted('a'),
    );
    expect(state.views.map((v) => [v.id, v.name, v.query])).toEqual([
      ['b', 'B', 'q=x'],
      ['c', 'C', ''],
    ]);
    expect(state.views[0]?.createdAt).toBe('2026-01-02T00:00:00.000Z');
  });
});
