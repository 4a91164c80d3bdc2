import { isLeft } from 'fp-ts/lib/Either.js';
import { expect } from 'vitest';
import { type Decider, foldEvents } from '../shared/decider.ts';

/** What a specification can assert once the command has been decided. */
export interface Outcome<Event> {
  /** Asserts the command was accepted and produced exactly these events. */
  then(expected: readonly Event[]): void;
  /** Asserts the command was refused with this code and user-facing message. */
  thenRejects(code: string, message: string): void;
}

/**
 * Given/when/then specification of a decider (Emmett style): fold `events` into state, decide `command`, and
 * compare the result. Test-only; lives beside the code so every aggregate folder of part B can share it.
 */
export function given<Command, Event, State>(decider: Decider<Command, Event, State>, events: readonly Event[] = []) {
  return {
    when(command: Command): Outcome<Event> {
      const result = decider.decide(command, foldEvents(decider, events));
      return {
        // biome-ignore lint/suspicious/noThenProperty: the given/when/then vocabulary is the point; never awaited.
        then(expected) {
          if (isLeft(result)) throw new Error(`expected events, got refusal ${JSON.stringify(result.left)}`);
          expect(result.right).toEqual(expected);
        },
        thenRejects(code, message) {
          if (!isLeft(result)) throw new Error(`expected refusal ${code}, got events ${JSON.stringify(result.right)}`);
          expect({ code: result.left.code, message: result.left.message }).toEqual({ code, message });
        },
      };
    },
  };
}
