import { z } from 'zod';
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from '../shared/time-zone.ts';

/** The 16 choices of the timezone modal (§3), in the order shown. Any other IANA zone is still accepted. */
export const TIME_ZONE_OPTIONS: readonly { readonly label: string; readonly value: string }[] = [
  { label: 'Eastern', value: 'America/New_York' },
  { label: 'Central', value: 'America/Chicago' },
  { label: 'Mountain', value: 'America/Denver' },
  { label: 'Arizona', value: 'America/Phoenix' },
  { label: 'Pacific', value: 'America/Los_Angeles' },
  { label: 'Alaska', value: 'America/Anchorage' },
  { label: 'Hawaii', value: 'Pacific/Honolulu' },
  { label: 'London', value: 'Europe/London' },
  { label: 'Paris/Berlin/Rome', value: 'Europe/Paris' },
  { label: 'Athens/Istanbul', value: 'Europe/Athens' },
  { label: 'Dubai', value: 'Asia/Dubai' },
  { label: 'Mumbai/New Delhi', value: 'Asia/Kolkata' },
  { label: 'Beijing/Shanghai', value: 'Asia/Shanghai' },
  { label: 'Tokyo/Osaka', value: 'Asia/Tokyo' },
  { label: 'Sydney/Melbourne', value: 'Australia/Sydney' },
  { label: 'Auckland', value: 'Pacific/Auckland' },
];

/** The message for a zone that is not IANA. */
export const INVALID_TIME_ZONE = 'Please choose a valid time zone';

/** An IANA zone name, canonicalised ('america/new_york' → 'America/New_York'); checked purely with Temporal. */
export const timeZoneSchema = z.string({ error: INVALID_TIME_ZONE }).transform((name, ctx) => {
  const canonical = canonicalTimeZone(name);
  if (canonical === null) {
    ctx.addIssue({ code: 'custom', message: INVALID_TIME_ZONE });
    return z.NEVER;
  }
  return canonical;
});

/** A zone from the browser at sign-up, falling back to the default (§3: default America/New_York). */
export const timeZoneOrDefaultSchema = timeZoneSchema.catch(DEFAULT_TIME_ZONE);

/** PATCH /auth/me (§7: profile update of the timezone). */
export const profileUpdateSchema = z.object({ timezone: timeZoneSchema });

/** §5: saving the same zone again is blocked. Returns the message, or null when there is a change. */
export function timeZoneChangeError(current: string, next: string): string | null {
  return canonicalTimeZone(current) === canonicalTimeZone(next) ? 'No changes to save' : null;
}
