import { describe, expect, it } from 'vitest';
import { nextQuarterHour, nextUtcMidnight, RateGate } from './rate-gate.ts';

const headers = (values: Record<string, string>) => new Headers(values);

describe('RateGate (Strava rate limits)', () => {
  it('finds the next window resets in UTC', () => {
    expect(nextQuarterHour(new Date('2026-11-18T12:05:00Z')).toISOString()).toBe('2026-11-18T12:15:00.000Z');
    expect(nextQuarterHour(new Date('2026-11-18T12:15:00Z')).toISOString()).toBe('2026-11-18T12:30:00.000Z');
    expect(nextUtcMidnight(new Date('2026-11-18T23:59:59Z')).toISOString()).toBe('2026-11-19T00:00:00.000Z');
  });

  it('stays open below the limits and closes until the reset once a window is used up', () => {
    let now = new Date('2026-11-18T12:05:00Z');
    const gate = new RateGate(() => now);
    gate.observe(headers({ 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '150,900' }), 200, 'read');
    expect(gate.blockedUntil('read')).toBeNull();
    gate.observe(headers({ 'x-readratelimit-limit': '100,1000', 'x-readratelimit-usage': '100,400' }), 200, 'read');
    expect(gate.blockedUntil('read')?.toISOString()).toBe('2026-11-18T12:15:00.000Z');
    expect(gate.blockedUntil('write')).toBeNull(); // the read limit leaves OAuth calls alone
    now = new Date('2026-11-18T12:15:00Z');
    expect(gate.blockedUntil('read')).toBeNull();
  });

  it('closes until midnight when the daily allowance is spent, and on a bare 429 until the quarter hour', () => {
    const now = new Date('2026-11-18T12:05:00Z');
    const daily = new RateGate(() => now);
    daily.observe(headers({ 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '20,2000' }), 429, 'write');
    expect(daily.blockedUntil('read')?.toISOString()).toBe('2026-11-19T00:00:00.000Z');
    expect(daily.blockedUntil('write')?.toISOString()).toBe('2026-11-19T00:00:00.000Z');
    const bare = new RateGate(() => now);
    bare.observe(headers({}), 429, 'read');
    expect(bare.blockedUntil('read')?.toISOString()).toBe('2026-11-18T12:15:00.000Z');
  });
});
