import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { loginSchema, signUpSchema } from './auth.ts';
import { feedFilterSchema, reactionBodySchema, reactionEmojiSchema } from './feed.ts';
import { createGoalBodySchema, patchGoalBodySchema } from './goal.ts';
import { createGroupBodySchema, groupNameSchema, inviteCodeSchema } from './group.ts';
import { notificationPreferencesSchema, pushRegistrationSchema, timeOfDaySchema } from './notifications.ts';
import { gpsFinishBodySchema } from './lists.ts';
import { patchRunBodySchema, runBodySchema } from './run.ts';
import {
  profileUpdateSchema,
  TIME_ZONE_OPTIONS,
  timeZoneChangeError,
  timeZoneOrDefaultSchema,
  timeZoneSchema,
} from './time-zone.ts';
import { distanceUnitSchema } from './units.ts';

/** The messages of a failed parse (empty when it passed). */
function messages(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('sign-up and login', () => {
  const valid = { display_name: ' Ana ', email: 'Ana@Example.com ', password: 'longenough' };

  it('accepts and normalises a sign-up', () => {
    expect(signUpSchema.parse(valid)).toEqual({
      display_name: 'Ana',
      email: 'ana@example.com',
      password: 'longenough',
    });
  });

  it('password at least 8 characters, with the spec description', () => {
    expect(messages(signUpSchema, { ...valid, password: '1234567' })).toEqual([
      'Password must be at least 8 characters',
    ]);
    expect(messages(signUpSchema, { ...valid, password: '12345678' })).toEqual([]);
  });

  it('all fields required', () => {
    expect(messages(signUpSchema, { ...valid, display_name: '  ' })).toEqual(['Display name is required']);
    expect(messages(signUpSchema, { ...valid, email: 'nope' })).toEqual(['Please enter a valid email address']);
    expect(messages(loginSchema, { email: 'a@b.co', password: '' })).toEqual(['Password is required']);
    expect(messages(loginSchema, { email: 'a@b.co', password: 'short' })).toEqual([]);
  });
});

describe('goal creation body', () => {
  const body = {
    type: 'distance',
    target_value: 20,
    stake_amount_cents: 1000,
    charity_id: 'c1',
    payment_method_id: 'pm1',
  };

  it('accepts a staked goal with defaults for unit and start', () => {
    expect(createGoalBodySchema.parse(body)).toEqual({ ...body, unit: 'km', start: 'this_week' });
  });

  it.each([
    [{ target_value: 0 }, 'Please enter a valid target value greater than 0'],
    [{ target_value: 0.004 }, 'Please enter a valid target value greater than 0'],
    [{ target_value: 1e-300, unit: 'mi' }, 'Please enter a valid target value greater than 0'],
    [{ target_value: 'abc' }, 'Please enter a valid target value greater than 0'],
    [{ target_value: 805 }, 'Distance goal cannot exceed 804.67 km per week'],
    [{ target_value: 501, unit: 'mi' }, 'Distance goal cannot exceed 500 mi per week'],
    [{ type: 'count', target_value: 51 }, 'Run count goal cannot exceed 50 runs per week'],
    [{ type: 'count', target_value: 3.5 }, 'Run count must be a whole number'],
    [{ stake_amount_cents: 1500 }, 'Please choose a stake of $0, $5, $10, $20, $50 or $100'],
    [{ stake_amount_cents: 0, payment_method_id: null }, 'A charity can only be chosen when there is a stake'],
    [{ payment_method_id: null }, 'Please add a payment method to put money on the line'],
  ])('refuses %o', (over, message) => {
    expect(messages(createGoalBodySchema, { ...body, ...over })).toEqual([message]);
  });

  it('an unknown unit falls back to km', () => {
    expect(createGoalBodySchema.parse({ ...body, unit: 'furlong' }).unit).toBe('km');
  });

  it('a cancel patch is the only patch', () => {
    expect(messages(patchGoalBodySchema, { status: 'canceled' })).toEqual([]);
    expect(messages(patchGoalBodySchema, { status: 'completed' })).toEqual(['Only canceling a goal is supported']);
  });
});

describe('groups', () => {
  it('group name: trimmed, 3 to 50', () => {
    expect(groupNameSchema.parse('  Runners ')).toBe('Runners');
    expect(messages(groupNameSchema, ' ab ')).toEqual(['Group name must be at least 3 characters']);
    expect(messages(groupNameSchema, 'x'.repeat(51))).toEqual(['Group name must be at most 50 characters']);
    expect(messages(createGroupBodySchema, { name: 'abc' })).toEqual([]);
  });

  it('invite code: trimmed, uppercased, exactly 8', () => {
    expect(inviteCodeSchema.parse(' abcd1234 ')).toBe('ABCD1234');
    expect(messages(inviteCodeSchema, 'abc')).toEqual(['Invite code must be 8 characters']);
    expect(messages(inviteCodeSchema, 'abcd12345')).toEqual(['Invite code must be 8 characters']);
  });
});

describe('time zones and units', () => {
  it('lists the 16 options of §3, every one a valid IANA zone', () => {
    expect(TIME_ZONE_OPTIONS).toHaveLength(16);
    for (const option of TIME_ZONE_OPTIONS) expect(timeZoneSchema.parse(option.value)).toBe(option.value);
    expect(TIME_ZONE_OPTIONS.map((o) => o.label)).toContain('Paris/Berlin/Rome');
  });

  it('accepts any IANA zone, refuses the rest', () => {
    expect(timeZoneSchema.parse('america/argentina/buenos_aires')).toBe('America/Argentina/Buenos_Aires');
    expect(messages(timeZoneSchema, 'Nowhere/Land')).toEqual(['Please choose a valid time zone']);
    expect(messages(profileUpdateSchema, { timezone: '+02:00' })).toEqual(['Please choose a valid time zone']);
    expect(timeZoneOrDefaultSchema.parse('junk')).toBe('America/New_York');
  });

  it('saving an unchanged zone is blocked', () => {
    expect(timeZoneChangeError('Europe/London', 'Europe/London')).toBe('No changes to save');
    expect(timeZoneChangeError('Europe/London', 'Europe/Paris')).toBeNull();
  });

  it('distance unit: km or mi, anything else km', () => {
    expect(distanceUnitSchema.parse('mi')).toBe('mi');
    expect(distanceUnitSchema.parse('miles')).toBe('km');
    expect(distanceUnitSchema.parse(undefined)).toBe('km');
  });
});

describe('runs', () => {
  const body = {
    started_at: '2025-03-10T12:00:00Z',
    distance_km: 5,
    duration_sec: 1800,
    source: 'gps',
    gps_data: {
      positions: [{ latitude: 40, longitude: -74, timestamp: Date.parse('2025-03-10T12:00:00Z'), accuracy: 5 }],
    },
    notes: '  ',
  };
  const fix = body.gps_data.positions[0]!;

  it('accepts a GPS run; blank notes become null', () => {
    expect(runBodySchema.parse(body).notes).toBeNull();
  });

  it('refuses malformed fields', () => {
    expect(messages(runBodySchema, { ...body, started_at: 'yesterday' })).toEqual([
      'started_at must be an ISO date-time',
    ]);
    expect(messages(runBodySchema, { ...body, gps_data: { positions: [{ ...fix, latitude: 91 }] } })).toEqual([
      'latitude must be a number from -90 to 90',
    ]);
    expect(messages(patchRunBodySchema, { notes: 'x'.repeat(1001) })).toEqual([
      'Notes must be at most 1000 characters',
    ]);
  });

  it('bounds every number to what a run can be, naming the field', () => {
    expect(messages(runBodySchema, { ...body, duration_sec: 2147483648 })).toEqual([
      'duration_sec must be a number from 0 to 172800 (48 hours)',
    ]);
    expect(messages(runBodySchema, { ...body, distance_km: 1e9 })).toEqual([
      'distance_km must be a number from 0 to 500 km',
    ]);
    expect(messages(runBodySchema, { ...body, started_at: '0000-01-01T00:00:00Z' })).toEqual([
      'A run cannot start before the year 2000',
    ]);
    const withFix = (over: object) => ({ ...body, gps_data: { positions: [{ ...fix, ...over }] } });
    expect(messages(runBodySchema, withFix({ timestamp: 1 }))).toEqual([
      'timestamp must be epoch milliseconds between 2000 and 2100',
    ]);
    expect(messages(runBodySchema, withFix({ accuracy: 1e7 }))).toEqual([
      'accuracy must be a number from 0 to 100000 m',
    ]);
    expect(messages(runBodySchema, withFix({ longitude: -181 }))).toEqual([
      'longitude must be a number from -180 to 180',
    ]);
    expect(messages(gpsFinishBodySchema, { duration_sec: 1e10 })).toEqual([
      'duration_sec must be a number from 0 to 172800 (48 hours)',
    ]);
  });

  it('refuses text PostgreSQL cannot store, naming the field', () => {
    const unstorable = 'must not contain NUL characters or unpaired UTF-16 surrogates';
    expect(messages(runBodySchema, { ...body, notes: 'a\u0000b' })).toEqual([`notes: ${unstorable}`]);
    expect(messages(patchRunBodySchema, { notes: 'a\ud800b' })).toEqual([`notes: ${unstorable}`]);
    expect(messages(createGroupBodySchema, { name: 'Run\u0000ners' })).toEqual([`name: ${unstorable}`]);
  });

  it('a notes patch: absent leaves the notes alone, null or blank clears them', () => {
    expect(patchRunBodySchema.parse({})).toEqual({});
    expect(patchRunBodySchema.parse({ notes: null })).toEqual({ notes: null });
    expect(patchRunBodySchema.parse({ notes: ' ' })).toEqual({ notes: null });
    expect(patchRunBodySchema.parse({ notes: ' hills ' })).toEqual({ notes: 'hills' });
  });
});

describe('feed, reactions, notifications, push', () => {
  it('reactions and filters', () => {
    expect(reactionEmojiSchema.options).toEqual(['thumbs_up', 'clap', 'fire']);
    expect(messages(reactionBodySchema, { feed_event_id: 'f1', emoji: 'heart' })).toEqual(['Unknown reaction']);
    expect(feedFilterSchema.parse(undefined)).toBe('all');
    expect(messages(feedFilterSchema, 'photos')).toHaveLength(1);
  });

  it('notification times are HH:MM:SS, with the §9 defaults', () => {
    expect(notificationPreferencesSchema.parse({})).toMatchObject({
      upcoming_goal_time: '18:00:00',
      midweek_update_time: '18:00:00',
      ending_soon_time: '09:00:00',
    });
    expect(messages(timeOfDaySchema, '18:00')).toEqual(['Time must be in HH:MM:SS format']);
    expect(messages(timeOfDaySchema, '24:00:00')).toEqual(['Time must be in HH:MM:SS format']);
  });

  it('push registration needs a token and a known platform', () => {
    expect(messages(pushRegistrationSchema, { token: 't', platform: 'web' })).toEqual([]);
    expect(messages(pushRegistrationSchema, { token: ' ', platform: 'ios' })).toEqual(['A push token is required']);
    expect(messages(pushRegistrationSchema, { token: 't', platform: 'windows' })).toEqual([
      'Platform must be ios, android or web',
    ]);
  });
});
