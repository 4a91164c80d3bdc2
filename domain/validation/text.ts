import { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT } from '../shared/storable-text.ts';

/**
 * A string PostgreSQL can store (no NUL, no unpaired UTF-16 surrogate; see domain/shared/storable-text.ts): the
 * one refinement the API's text fields use. The message names the field: `notes: must not contain …`.
 */
export function storableString(params?: { error?: string }) {
  return z.string(params).refine(isStorableText, {
    error: (issue) => `${(issue.path ?? []).map(String).join('.') || 'text'}: ${UNSTORABLE_TEXT}`,
  });
}

/**
 * An ISO-8601 date-time with an offset, no earlier than `earliest.ms` (default 1970). zod alone lets year 0000
 * through, which PostgreSQL's timestamptz refuses: a 500 in a query, a poisoned projection in an event.
 */
export function isoInstant(message: string, earliest: { ms: number; message: string } = { ms: 0, message }) {
  return (
    z.iso
      .datetime({ offset: true, error: message })
      // NaN: not a date-time at all, which the format check above already reported.
      .refine((value) => Number.isNaN(Date.parse(value)) || Date.parse(value) >= earliest.ms, {
        error: earliest.message,
      })
  );
}

/** What an id in a path must be; refusals read `id: must be …`. */
export const PATH_ID_RULE = 'must be letters, digits and _ . : - only (at most 200 characters)';

/**
 * The id in a path (`/runs/{id}`): our UUIDs and the ids derived from them or from a provider (`strava-123`,
 * `goal-<uuid>`, `pm_card_visa`, `badge-<id>`), 1 to 200 letters, digits and `_ . : -`. Anything else (a NUL byte,
 * a quote, a slash) answers 400 before it reaches SQL.
 */
export const pathIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/, { error: PATH_ID_RULE });
