import { z } from 'zod';
import { entityId, isoInstant } from '../shared/event-schema.ts';
import { formatDollars } from '../shared/money.ts';
import { LEDGER_MONTH } from './charity-ledger.ts';

/**
 * Money paid out to a charity for one month of its ledger (`npm run ledger:payout`): what "has been paid" beside
 * what "is owed" (issue 25 item 5). Recorded by an operator after the bank transfer, with the transfer's reference;
 * the stream is named by charity, month and reference, so recording the same transfer twice records it once.
 */
export const CharityPaidOut = z.object({
  type: z.literal('CharityPaidOut'),
  data: z.object({
    charityId: entityId,
    /** The ledger month this pays, `YYYY-MM` (UTC). */
    month: z.string().regex(LEDGER_MONTH),
    amountCents: z.number().int().positive(),
    /** The bank transfer's reference, as the charity will see it. */
    reference: z.string().min(1).max(200),
    paidAt: isoInstant,
  }),
});
/** Money paid out to a charity for one month of its ledger. */
export type CharityPaidOut = z.infer<typeof CharityPaidOut>;

/**
 * Why a payout may not be recorded, or null: nothing may be paid beyond what the month still owes the charity. A
 * refund made after a payout can leave a month owing back (due below zero); the next month's payout is then smaller.
 */
export function payoutProblem(
  charityId: string,
  month: string,
  due: { readonly owedCents: number; readonly paidCents: number } | undefined,
  amountCents: number,
): string | null {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    return 'The amount must be a whole number of cents above 0';
  const left = (due?.owedCents ?? 0) - (due?.paidCents ?? 0);
  if (left <= 0) return `Nothing is due to ${charityId} for ${month}`;
  if (amountCents > left) {
    return `${formatDollars(amountCents, { alwaysCents: true })} is more than the ${formatDollars(left, { alwaysCents: true })} still due to ${charityId} for ${month}`;
  }
  return null;
}
