import type { ExpectedRevision, NewEvent } from '@bugtrail/eventstore';
import type { TestSystem } from '../../../../test-support/system.js';

/** Appends events as write-api would, then waits until every read model has them. */
export async function appendAndSettle(
  t: TestSystem,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision = 'any',
): Promise<string> {
  const result = await t.system.store.append(streamId, events, expected);
  const caughtUp = await t.system.changeFeed.waitFor(result.position, 10_000);
  if (!caughtUp) throw new Error(`read models did not reach ${result.position}`);
  return result.position;
}

/** A time `minutes` after a fixed base in the past (events carry their own clock). */
export function minutesAfter(base: number, minutes: number): string {
  return new Date(base + minutes * 60_000).toISOString();
}
