import type { ReviewItem } from './released-stake-review.ts';
import type { AuditReport } from './stake-audit.ts';

/** The money audit with its review section (released stakes to look at). */
export type FullAuditReport = AuditReport & { readonly review: readonly ReviewItem[] };

/** The report as CSV: one line per stake with its violations and review notes, then the per-charity totals. */
export function auditCsv(report: FullAuditReport): string {
  const q = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const lines = [
    'stake_id,user_id,charity_id,amount_cents,opened_at,outcome,captured_cents,donation_cents,fee_cents,violations,review',
  ];
  const review = new Map(report.review.map((r) => [r.stakeId, r.why.join('; ')]));
  for (const s of report.stakes) {
    lines.push(
      [
        s.stakeId,
        s.userId,
        s.charityId,
        s.amountCents,
        s.openedAt,
        s.outcome,
        s.capturedCents,
        s.donationCents,
        s.feeCents,
        s.violations.join('; '),
        review.get(s.stakeId) ?? '',
      ]
        .map(q)
        .join(','),
    );
  }
  lines.push('', 'charity_id,stakes,donation_cents');
  for (const [id, c] of Object.entries(report.totals.byCharity))
    lines.push([id, c.stakes, c.donationCents].map(q).join(','));
  return `${lines.join('\n')}\n`;
}

/** A short human summary for stderr. */
export function auditSummary(report: FullAuditReport): string {
  const t = report.totals;
  return [
    `stakes ${t.stakes}, settled ${t.settled}, captured ${t.capturedCents}c = donations ${t.donationCents}c + fees ${t.feeCents}c`,
    `violations ${report.violations.length}, releases owed ${report.openReleases.length}, released stakes to review ${report.review.length}`,
    ...report.violations.map((v) => `VIOLATION ${v.stakeId}: ${v.rule}`),
    ...report.review.map((r) => `REVIEW ${r.stakeId}: ${r.why.join('; ')}`),
  ].join('\n');
}
