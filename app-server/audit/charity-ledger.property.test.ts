import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import { splitCapture, splitRefund } from '../../domain/shared/money.ts';
import { charityLedger } from '../../domain/stake/charity-ledger.ts';
import type { StakeEvent } from '../../domain/stake/events.ts';
import { auditStakes } from './stake-audit.ts';

/*
 * The charity ledger rule (issue 25.5), for any history of captures and refunds: per charity and UTC month,
 * owed = Σ floor(80% × captured) − Σ the refunds' charity share, in integer cents, where a refund's charity share is
 * floor(80% × refunded so far) − floor(80% × refunded before it) (splitRefund). The reference below is written out
 * again with integer arithmetic, independently of the code under test.
 */

const RUNS = Number(process.env.LEDGER_RUNS ?? 1000);
const DAY = 86_400_000;
const YEAR_START = Date.parse('2026-01-01T00:00:00Z');

type StakeHistory = {
  charityId: string | null;
  capturedCents: number;
  collected: boolean;
  collectedAtMs: number;
  refunds: { cents: number; afterMs: number }[];
};

const stakeHistory: fc.Arbitrary<StakeHistory> = fc
  .record({
    charityId: fc.constantFrom('amf', 'givedirectly', 'redcross', null),
    capturedCents: fc.oneof(fc.constantFrom(500, 1000, 2000, 5000, 10000), fc.integer({ min: 1, max: 1_000_000 })),
    collected: fc.boolean(),
    // Anywhere in a year, to the millisecond: month boundaries are crossed often.
    collectedAtMs: fc.integer({ min: YEAR_START, max: YEAR_START + 365 * DAY }),
    refunds: fc.array(
      fc.record({ cents: fc.integer({ min: 1, max: 1_000_000 }), afterMs: fc.integer({ min: 0, max: 90 * DAY }) }),
      { maxLength: 4 },
    ),
    refundAll: fc.boolean(),
  })
  .map(({ refundAll, ...h }) => {
    // Refunds never exceed what was collected; sometimes the last one gives back the rest, to the cent.
    let left = h.capturedCents;
    const refunds = h.refunds.flatMap((r) => {
      const cents = Math.min(r.cents, left);
      left -= cents;
      return cents > 0 ? [{ cents, afterMs: r.afterMs }] : [];
    });
    if (refundAll && left > 0) refunds.push({ cents: left, afterMs: 91 * DAY });
    return { ...h, refunds: h.collected ? refunds.sort((a, b) => a.afterMs - b.afterMs) : [] };
  });

const iso = (ms: number) => new Date(ms).toISOString();

/** The stake's events as the system records them: opened, held, captured, refunded. */
function eventsOf(id: string, h: StakeHistory): { at: number; event: StakeEvent }[] {
  const opened = h.collectedAtMs - 7 * DAY;
  const out: { at: number; event: StakeEvent }[] = [
    {
      at: opened,
      event: {
        type: 'StakeOpened',
        data: {
          stakeId: id,
          goalId: `goal-${id}`,
          userId: 'runner',
          amountCents: h.capturedCents,
          charityId: h.charityId,
          paymentMethodId: 'pm_1',
          weekStart: iso(opened).slice(0, 10),
          timeZone: 'UTC',
          openedAt: iso(opened),
        },
      },
    },
  ];
  if (!h.collected) return out;
  const pi = `pi_${id}`;
  const split = splitCapture(h.capturedCents, h.charityId !== null);
  out.push(
    {
      at: opened + 1,
      event: {
        type: 'StakeHoldPlaced',
        data: {
          stakeId: id,
          paymentIntentId: pi,
          captureBefore: iso(h.collectedAtMs + DAY),
          idempotencyKey: `k-${id}-hold`,
          placedAt: iso(opened + 1),
        },
      },
    },
    {
      at: h.collectedAtMs - 1,
      event: {
        type: 'StakeCaptureRequested',
        data: {
          stakeId: id,
          outcome: 'lost',
          paymentIntentId: pi,
          amountCents: h.capturedCents,
          captureBefore: iso(h.collectedAtMs + DAY),
          idempotencyKey: `k-${id}-capture`,
          requestedAt: iso(h.collectedAtMs - 1),
        },
      },
    },
    {
      at: h.collectedAtMs,
      event: {
        type: 'StakeCollected',
        data: {
          stakeId: id,
          outcome: 'lost',
          method: 'capture',
          paymentIntentId: pi,
          capturedCents: h.capturedCents,
          donationCents: split.donationCents,
          feeCents: split.feeCents,
          charityId: h.charityId,
          collectedAt: iso(h.collectedAtMs),
        },
      },
    },
  );
  let refunded = 0;
  h.refunds.forEach((r, i) => {
    const share = splitRefund(h.capturedCents, refunded, r.cents, h.charityId !== null);
    refunded += r.cents;
    const at = h.collectedAtMs + 1 + r.afterMs;
    out.push({
      at,
      event: {
        type: 'StakeRefunded',
        data: {
          stakeId: id,
          paymentIntentId: pi,
          refundedCents: r.cents,
          donationRefundCents: share.donationCents,
          feeRefundCents: share.feeCents,
          charityId: h.charityId,
          reason: 'test refund',
          idempotencyKey: `k-${id}-refund-${i}`,
          refundedAt: iso(at),
        },
      },
    });
  });
  return out;
}

/** Every stake's events merged into one log, in time order (a stake's own events keep their order). */
function logOf(histories: StakeHistory[]): StakeEvent[] {
  return histories
    .flatMap((h, i) => eventsOf(`s${i}`, h).map((e, j) => ({ ...e, i, j })))
    .sort((a, b) => a.at - b.at || a.i - b.i || a.j - b.j)
    .map((e) => e.event);
}

function recorded(events: StakeEvent[]): AsyncIterable<RecordedEvent> {
  return (async function* () {
    let n = 0;
    for (const e of events) {
      n += 1;
      yield {
        ...e,
        streamId: `stake-${e.data.stakeId}`,
        streamRevision: 0,
        position: { commit: BigInt(n), prepare: BigInt(n) },
        globalPosition: n,
        recordedAt: iso(YEAR_START),
        metadata: {},
      } as unknown as RecordedEvent;
    }
  })();
}

/** The rule written out once more: month → charity → owed, with floor(4x/5) for the 80% share. */
function referenceOwed(histories: StakeHistory[]): Map<string, number> {
  const owed = new Map<string, number>();
  const add = (ms: number, charity: string, cents: number) => {
    const key = `${iso(ms).slice(0, 7)} ${charity}`;
    owed.set(key, (owed.get(key) ?? 0) + cents);
  };
  const share = (cents: number) => Math.floor((cents * 4) / 5);
  for (const h of histories) {
    if (!h.collected || h.charityId === null) continue;
    add(h.collectedAtMs, h.charityId, share(h.capturedCents));
    let before = 0;
    for (const r of h.refunds) {
      add(h.collectedAtMs + 1 + r.afterMs, h.charityId, -(share(before + r.cents) - share(before)));
      before += r.cents;
    }
  }
  return owed;
}

const histories = fc.array(stakeHistory, { minLength: 1, maxLength: 10 });

describe('the charity ledger: owed = 80% of captures − the refunds’ charity share, per charity per month', () => {
  it('property: every line equals the rule, in integer cents; donation + fee = captured; owed = donation − refunds’ share', () => {
    fc.assert(
      fc.property(histories, (hs) => {
        const lines = charityLedger(logOf(hs));
        const reference = referenceOwed(hs);
        expect(new Map(lines.map((l) => [`${l.month} ${l.charityId}`, l.owedCents]))).toEqual(reference);
        for (const l of lines) {
          for (const v of Object.values(l)) if (typeof v === 'number') expect(Number.isSafeInteger(v)).toBe(true);
          expect(l.donationCents + l.feeCents).toBe(l.capturedCents);
          expect(l.owedCents).toBe(l.donationCents - l.refundCharityCents);
          expect(l.refundCharityCents).toBeLessThanOrEqual(l.refundedCents);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('property: a stake’s refunds never give back more than its donation, and a full refund gives back exactly the donation and the fee', () => {
    fc.assert(
      fc.property(stakeHistory, (h) => {
        const captured = splitCapture(h.capturedCents, h.charityId !== null);
        let refunded = 0;
        let donationBack = 0;
        let feeBack = 0;
        for (const r of h.refunds) {
          const s = splitRefund(h.capturedCents, refunded, r.cents, h.charityId !== null);
          expect(s.donationCents + s.feeCents).toBe(r.cents);
          expect(s.donationCents).toBeGreaterThanOrEqual(0);
          expect(s.feeCents).toBeGreaterThanOrEqual(0);
          refunded += r.cents;
          donationBack += s.donationCents;
          feeBack += s.feeCents;
          expect(donationBack).toBeLessThanOrEqual(captured.donationCents);
          expect(feeBack).toBeLessThanOrEqual(captured.feeCents);
        }
        if (refunded === h.capturedCents && h.refunds.length > 0) {
          expect(donationBack).toBe(captured.donationCents);
          expect(feeBack).toBe(captured.feeCents);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('property: npm run audit:stakes’s replay passes on any such history and reports the same ledger', async () => {
    await fc.assert(
      fc.asyncProperty(histories, async (hs) => {
        const events = logOf(hs);
        const report = await auditStakes(recorded(events));
        expect(report.violations).toEqual([]);
        expect(report.ledger).toEqual(charityLedger(events));
      }),
      { numRuns: RUNS },
    );
  });

  it('property: a cent moved between the charity and the fee in any capture or refund is a ledger violation', async () => {
    const tampered = histories
      .filter((hs) => hs.some((h) => h.collected && h.charityId !== null))
      .chain((hs) => fc.tuple(fc.constant(hs), fc.nat(), fc.constantFrom(1, -1)));
    await fc.assert(
      fc.asyncProperty(tampered, async ([hs, pick, delta]) => {
        const events = logOf(hs);
        const money = events.flatMap((e, i) =>
          (e.type === 'StakeCollected' || e.type === 'StakeRefunded') && e.data.charityId !== null ? [i] : [],
        );
        const index = money[pick % money.length]!;
        const e = events[index]!;
        if (e.type === 'StakeCollected') {
          events[index] = {
            ...e,
            data: { ...e.data, donationCents: e.data.donationCents + delta, feeCents: e.data.feeCents - delta },
          };
        } else if (e.type === 'StakeRefunded') {
          events[index] = {
            ...e,
            data: {
              ...e.data,
              donationRefundCents: e.data.donationRefundCents + delta,
              feeRefundCents: e.data.feeRefundCents - delta,
            },
          };
        }
        const report = await auditStakes(recorded(events));
        expect(report.violations.some((v) => v.stakeId === 'ledger' && v.rule.startsWith('charity ledger'))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the charity ledger, by example', () => {
  it('$9.99 captured for one charity in March, $5 of it refunded in April: 799c owed in March, −400c in April', () => {
    const lines = charityLedger(
      logOf([
        {
          charityId: 'amf',
          capturedCents: 999,
          collected: true,
          collectedAtMs: Date.parse('2026-03-31T23:59:59Z') - 1,
          refunds: [{ cents: 500, afterMs: 1000 }],
        },
      ]),
    );
    expect(lines.map((l) => [l.month, l.owedCents, l.feeCents])).toEqual([
      ['2026-03', 799, 200],
      ['2026-04', -400, 0],
    ]);
  });
});
