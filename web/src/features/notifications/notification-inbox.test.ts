import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppNotification } from './api/get-notifications.ts';
import { NotificationInbox } from './notification-inbox.ts';

const note = (id: string, at: number): AppNotification => ({
  id,
  type: 'upcoming_goal',
  delivered_at: new Date(at).toISOString(),
  payload: { title: id, message: id },
});

/** What GET /notifications?after= answers from the server's rows (strictly after, oldest first). */
const serverAnswer = (rows: readonly AppNotification[], after: string | null) =>
  rows
    .filter((n) => after === null || Date.parse(n.delivered_at) > Date.parse(after))
    .sort((a, b) => Date.parse(a.delivered_at) - Date.parse(b.delivered_at));

describe('the notification inbox', () => {
  it('starts after the newest notification that was there before, and shows a later one once', () => {
    const T = Date.parse('2026-11-18T12:00:00Z');
    const old = note('old', T);
    const inbox = new NotificationInbox([old]);
    expect(inbox.receive(serverAnswer([old], inbox.checkFrom()))).toEqual([]);
    const later = note('later', T + 5_000);
    expect(inbox.receive(serverAnswer([old, later], inbox.checkFrom()))).toEqual([later]);
    expect(inbox.receive(serverAnswer([old, later], inbox.checkFrom()))).toEqual([]);
  });

  it('catches a notification delivered in the same millisecond as the last one seen', () => {
    const T = Date.parse('2026-11-18T12:00:00Z');
    const inbox = new NotificationInbox([]);
    const first = note('first', T);
    expect(inbox.receive(serverAnswer([first], inbox.checkFrom()))).toEqual([first]);
    const twin = note('twin', T);
    expect(inbox.receive(serverAnswer([first, twin], inbox.checkFrom()))).toEqual([twin]);
  });

  it('property: over any deliveries and checks, every notification after the start shows exactly once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 20 }), checkAfter: fc.boolean() }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 3 }),
        (deliveries, before) => {
          const base = Date.parse('2026-11-18T12:00:00Z');
          let clock = 0;
          const rows: AppNotification[] = [];
          for (let i = 0; i < before; i++) rows.push(note(`before-${i}`, base + clock));
          // The app opens: the history answers the newest ones, newest first.
          const inbox = new NotificationInbox([...rows].reverse());
          const shown: string[] = [];
          for (const [i, d] of deliveries.entries()) {
            // Delivery instants never go back (the server's clock), but may repeat.
            clock += d.at % 3 === 0 ? 0 : d.at;
            rows.push(note(`n-${i}`, base + clock));
            if (d.checkAfter) shown.push(...inbox.receive(serverAnswer(rows, inbox.checkFrom())).map((n) => n.id));
          }
          shown.push(...inbox.receive(serverAnswer(rows, inbox.checkFrom())).map((n) => n.id));
          expect(shown).toEqual(deliveries.map((_, i) => `n-${i}`));
        },
      ),
      { numRuns: 300 },
    );
  });
});
