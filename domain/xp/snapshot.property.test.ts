import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { xpLedgerDecider } from './decide.ts';
import { ledgerEvents, xpCommand } from './testing/xp-arbitraries.ts';
import type { XpLedgerEvent } from './events.ts';
import { xpLedgerFromSnapshot, xpLedgerToSnapshot } from './snapshot.ts';
import type { XpLedgerState } from './state.ts';

/*
 * A snapshot is a cache of the ledger's fold: state → JSON → state must give back the same state, and folding the
 * events after a snapshot taken anywhere must give the state of folding the whole history, whatever the history.
 */

const fold = (from: XpLedgerState, events: readonly XpLedgerEvent[]) => events.reduce(xpLedgerDecider.evolve, from);
const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 300);

describe('XP ledger snapshots', () => {
  it('give back the same state through JSON, and the whole fold from any point', () => {
    fc.assert(
      fc.property(fc.array(xpCommand, { maxLength: 40 }), fc.nat(), (commands, cut) => {
        const events = ledgerEvents(commands);
        const at = events.length === 0 ? 0 : cut % (events.length + 1);
        const whole = fold(xpLedgerDecider.initialState, events);
        const prefix = fold(xpLedgerDecider.initialState, events.slice(0, at));
        const snapshot = JSON.parse(JSON.stringify(xpLedgerToSnapshot(prefix)));
        expect(xpLedgerFromSnapshot(snapshot)).toEqual(prefix);
        expect(fold(xpLedgerFromSnapshot(snapshot), events.slice(at))).toEqual(whole);
        // And the next decision is the same from either state.
        for (const command of commands.slice(-3)) {
          expect(xpLedgerDecider.decide(command, fold(xpLedgerFromSnapshot(snapshot), events.slice(at)))).toEqual(
            xpLedgerDecider.decide(command, whole),
          );
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
