import { right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDecider, InvalidEventError, invalidEvent } from './decider.ts';

const Counted = z.object({ type: z.literal('Counted'), data: z.object({ total: z.number().int().nonnegative() }) });
type Counted = z.infer<typeof Counted>;

/** A decider that decides whatever total its command asks for: a stand-in for a decider with a bug. */
const counter = defineDecider<{ readonly total: number }, Counted, number>({
  initialState: 0,
  evolve: (_state, event) => event.data.total,
  decide: (command) => right([{ type: 'Counted', data: { total: command.total } }]),
  eventSchema: Counted,
});

describe('a decider checks what it decides against its event schema', () => {
  it('passes events that fit', () => {
    expect(counter.decide({ total: 3 }, 0)).toEqual(right([{ type: 'Counted', data: { total: 3 } }]));
  });

  it('throws InvalidEventError, naming the event and the field, for one that does not', () => {
    expect(() => counter.decide({ total: -1 }, 0)).toThrow(InvalidEventError);
    expect(() => counter.decide({ total: 1.5 }, 0)).toThrow(/^Counted does not fit its schema: data\.total: /);
    expect(invalidEvent(Counted, [{ type: 'Counted', data: { total: Number.NaN } }])).toMatch(/data\.total/);
    expect(invalidEvent(Counted, [{ type: 'Counted', data: { total: 2 } }])).toBeNull();
  });
});
