import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import {
  type MarkNotificationsRead,
  type NotificationsRead,
  notificationLimits,
  notificationMessages,
  notificationsDecider,
} from './notifications.js';

const { given } = deciderSpec(notificationsDecider);
const now = '2026-03-01T09:00:00.000Z';
const tess: Actor = { id: 'tess', role: 'tester' };

const markRead = (
  over: Partial<MarkNotificationsRead['data']> = {},
  actor: Actor | null = tess,
): MarkNotificationsRead => ({
  type: 'MarkNotificationsRead',
  data: { userId: 'tess', ids: ['n1'], all: false, ...over },
  metadata: { actor, now },
});
const read = (ids: string[], all = false): NotificationsRead => ({
  type: 'NotificationsRead',
  data: { userId: 'tess', ids, all, upTo: now },
});
const ids = (count: number) => Array.from({ length: count }, (_, i) => `n${i}`);

describe('MarkNotificationsRead', () => {
  describe('when nothing was read yet', () => {
    it('marks the ids read, each once, up to now', () => {
      given()
        .when(markRead({ ids: ['n1', 'n2', 'n1'] }))
        .then([read(['n1', 'n2'])]);
    });

    it('marks everything up to now with all, whatever ids come with it', () => {
      given()
        .when(markRead({ ids: [], all: true }))
        .then([read([], true)]);
      given()
        .when(markRead({ ids: ['n1'], all: true }))
        .then([read([], true)]);
    });

    it('refuses a read of nothing', () => {
      given()
        .when(markRead({ ids: [] }))
        .thenThrows('validation', notificationMessages.nothingToMark, [
          { field: 'ids', message: 'Send ids (a list of notification ids) or all: true' },
        ]);
    });

    it(`marks at most ${notificationLimits.idsPerRead} ids at once, each counted once`, () => {
      given()
        .when(markRead({ ids: ids(notificationLimits.idsPerRead) }))
        .then([read(ids(notificationLimits.idsPerRead))]);
      given()
        .when(markRead({ ids: [...ids(notificationLimits.idsPerRead), 'n0'] }))
        .then([read(ids(notificationLimits.idsPerRead))]);
      given()
        .when(markRead({ ids: ids(notificationLimits.idsPerRead + 1) }))
        .thenThrows('validation', notificationMessages.tooManyIds, [
          { field: 'ids', message: 'At most 500 ids at once' },
        ]);
    });

    it('is for the owner alone: nobody marks the notifications of someone else, an admin neither', () => {
      given()
        .when(markRead({}, { id: 'ann', role: 'tester' }))
        .thenThrows('forbidden', "You don't have permission to do that");
      given()
        .when(markRead({}, { id: 'admin-1', role: 'admin' }))
        .thenThrows('forbidden', "You don't have permission to do that");
    });

    it('refuses an anonymous caller', () => {
      given().when(markRead({}, null)).thenThrows('unauthorized', 'Not authorized, no token');
    });

    it('lets an auditor mark their own (reading is not a change, ADR 012 allows it)', () => {
      const auditor: Actor = { id: 'tess', role: 'auditor' };
      given()
        .when(markRead({}, auditor))
        .then([read(['n1'])]);
    });
  });

  describe('when notifications were read before', () => {
    it('records each read again: the stream keeps reads, not a state', () => {
      given(read(['n1']), read([], true))
        .when(markRead())
        .then([read(['n1'])]);
    });

    it('folds to nothing', () => {
      expect(given(read(['n1']), read([], true)).state).toBeNull();
    });
  });
});
