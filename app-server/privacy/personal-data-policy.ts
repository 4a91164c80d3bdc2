/**
 * Which fields of which events are personal data, and whose. Those fields are stored encrypted under the owner's
 * own key (crypto-shredding): erasing an account destroys the key, and from then on every read of the log —
 * live, replayed or audited — sees null in their place, while the facts (distances, times, stakes) stay whole.
 * Everything else personal (e-mail, name, avatar) is kept out of events altogether (see docs/auth.md).
 */
export interface PersonalDataRule {
  /** The user the data belongs to, from the event's data. */
  subject(data: Record<string, unknown>): string | null;
  /** Top-level fields of `data` that are personal. */
  readonly fields: readonly string[];
}

const userId = (data: Record<string, unknown>) => (typeof data.userId === 'string' ? data.userId : null);

/** The personal fields by event type. A GPS track is where someone lives and runs; notes are free text. */
export const personalDataRules: Readonly<Record<string, PersonalDataRule>> = {
  RunRecorded: { subject: userId, fields: ['positions', 'notes'] },
  RunNotesEdited: { subject: userId, fields: ['notes'] },
  TrackFixesReceived: { subject: userId, fields: ['positions'] },
  /** Why a week was paused: "injury" says something of someone's health. */
  WeekPaused: { subject: userId, fields: ['reason'] },
};
