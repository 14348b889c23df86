/**
 * Given/when/then for any decider's unit tests, as the house style reads them:
 *
 *   const { given } = deciderSpec(bugDecider);
 *   given(reported()).when(command('ChangeBugStatus', …)).then([statusChanged]);
 */
import type { Command, Decider, DomainError, Event } from '@bugtrail/domain';
import { expect } from 'vitest';

export function deciderSpec<State, C extends Command, E extends Event>(decider: Decider<State, C, E>) {
  return {
    given(...events: E[]) {
      const state = events.reduce<State>((s, event) => decider.evolve(s, event), decider.initialState());
      return {
        state,
        when(command: C) {
          const run = () => decider.decide(command, state);
          return {
            // biome-ignore lint/suspicious/noThenProperty: given/when/then, as house style reads; never awaited.
            then(expected: readonly E[]) {
              expect(run()).toEqual(expected);
            },
            thenNothing() {
              expect(run()).toEqual([]);
            },
            thenEvents() {
              return run();
            },
            thenThrows(
              code: DomainError['code'],
              message: string,
              details?: readonly { field: string; message: string }[],
            ) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught, 'the command should have been refused').toBeDefined();
              expect(caught).toMatchObject({ code, message });
              if (details) expect((caught as { details: unknown }).details).toEqual(details);
            },
          };
        },
      };
    },
  };
}
