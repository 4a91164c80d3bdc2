import { beforeEach, describe, expect, it } from 'vitest';
import { installStorage, STORAGE_KEYS } from '../../../lib/storage.ts';
import { forgetTrack, MAX_POINTS, MAX_RUNS, rememberTrack, storedTrack } from './track-store.ts';

const track = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    latitude: 51.5 + i * 1e-4,
    longitude: -0.12,
    timestamp: 1_000_000 + i * 3_000,
  }));

describe('track store', () => {
  beforeEach(() => {
    const map = new Map<string, string>();
    installStorage({
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    });
    map.set(STORAGE_KEYS.session, JSON.stringify({ user: { id: 'user-a' } }));
  });

  it('gives back the track of a run saved on this device, to the second and the metre', () => {
    rememberTrack('run-1', track(10));
    const back = storedTrack('run-1')!;
    expect(back).toHaveLength(10);
    back.forEach((p, i) => {
      expect(p.latitude).toBeCloseTo(51.5 + i * 1e-4, 6);
      expect(p.timestamp).toBe(1_000_000 + i * 3_000);
    });
    expect(storedTrack('run-2')).toBeNull();
  });

  it('keeps at most MAX_POINTS fixes per run and the newest MAX_RUNS runs', () => {
    rememberTrack('long', track(MAX_POINTS * 3), 0);
    expect(storedTrack('long')).toHaveLength(MAX_POINTS);
    for (let i = 1; i <= MAX_RUNS; i++) rememberTrack(`run-${i}`, track(3), i);
    expect(storedTrack('long')).toBeNull();
    expect(storedTrack('run-1')).not.toBeNull();
    forgetTrack('run-1');
    expect(storedTrack('run-1')).toBeNull();
  });
});
