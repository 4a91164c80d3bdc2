import { isLeft } from 'fp-ts/lib/Either.js';
import { expect } from 'vitest';
import type { Decider } from '../decider.ts';
import { foldEvents } from '../decider.ts';

/** The `when` step of a specification. */
export interface WhenStep<Event> {
  /** Asserts the command produced exactly these events. */
  then(expected: readonly Event[]): void;
  /** Asserts the command was refused with this code and exact message (and kind when given). */
  thenRejects(code: string, message: string, kind?: string): void;
  /** The produced events, for assertions of their own. */
  events(): readonly Event[];
}

/**
 * Given/when/then specification of a decider: `given(decider, past).when(command).then(events)`. Failing
 * assertions show the refusal or the events, so a broken spec reads like the rule it breaks.
 */
export function given<Command, Event, State>(decider: Decider<Command, Event, State>, past: readonly Event[] = []) {
  return {
    when(command: Command): WhenStep<Event> {
      const result = decider.decide(command, foldEvents(decider, past));
      const events = (): readonly Event[] => {
        if (isLeft(result)) throw new Error(`Expected events but was refused: ${JSON.stringify(result.left)}`);
        return result.right;
      };
      return {
        // biome-ignore lint/suspicious/noThenProperty: the spec's own vocabulary; this object is never awaited.
        then(expected) {
          expect(events()).toEqual(expected);
        },
        thenRejects(code, message, kind) {
          if (!isLeft(result)) throw new Error(`Expected refusal ${code} but got ${JSON.stringify(result.right)}`);
          expect({ code: result.left.code, message: result.left.message }).toEqual({ code, message });
          if (kind !== undefined) expect(result.left.kind).toBe(kind);
        },
        events,
      };
    },
  };
}
