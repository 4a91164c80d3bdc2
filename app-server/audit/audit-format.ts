import type { AuditReport } from './stake-audit.ts';

/** The report as CSV: one line per stake with its violations, then the per-charity totals. */
export function auditCsv(report: AuditReport): string {
  const q = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const lines = [
    'stake_id,user_id,charity_id,amount_cents,opened_at,outcome,captured_cents,donation_cents,fee_cents,violations',
  ];
  for (const s of report.stakes) {
    lines.push(
      [s.stakeId, s.userId, s.charityId, s.amountCents, s.openedAt, s.outcome, s.capturedCents, s.donationCents, s.feeCents, s.violations.join('; ')]
        .map(q)
        .join(','),
    );
  }
  lines.push('', 'charity_id,stakes,donation_cents');
  for (const [id, c] of Object.entries(report.totals.byCharity)) lines.push([id, c.stakes, c.donationCents].map(q).join(','));
  return `${lines.join('\n')}\n`;
}

/** A short human summary for stderr. */
export function auditSummary(report: AuditReport): string {
  const t = report.totals;
  return [
    `stakes ${t.stakes}, settled ${t.settled}, captured ${t.capturedCents}c = donations ${t.donationCents}c + fees ${t.feeCents}c`,
    `violations ${report.violations.length}, releases owed ${report.openReleases.length}`,
    ...report.violations.map((v) => `VIOLATION ${v.stakeId}: ${v.rule}`),
  ].join('\n');
}
