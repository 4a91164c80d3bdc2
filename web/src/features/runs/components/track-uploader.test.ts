import { describe, expect, it } from 'vitest';
import type { GpsPositionJson } from '../../../lib/api-types.ts';
import { MAX_FIXES_PER_UPLOAD, type UploadResult, uploadPending } from './track-uploader.ts';

const fixes = (n: number): GpsPositionJson[] =>
  Array.from({ length: n }, (_, i) => ({
    latitude: 40,
    longitude: -74 + i * 1e-5,
    timestamp: 1_000 + i * 1000,
    accuracy: 8,
  }));

/** A server that answers the given results in turn, recording what it received. */
function server(...results: UploadResult[]) {
  const received: (readonly GpsPositionJson[])[] = [];
  return {
    received,
    send: async (batch: readonly GpsPositionJson[]) => {
      received.push(batch);
      return results.shift() ?? 'sent';
    },
  };
}

describe('live track upload', () => {
  it('sends the fixes taken since the last upload, and nothing when there are none', async () => {
    const s = server();
    expect(await uploadPending({ positions: fixes(12), uploaded: 5 }, s.send)).toEqual({ uploaded: 12, gone: false });
    expect(s.received).toEqual([fixes(12).slice(5)]);
    const idle = server();
    expect(await uploadPending({ positions: fixes(12), uploaded: 12 }, idle.send)).toEqual({
      uploaded: 12,
      gone: false,
    });
    expect(idle.received).toEqual([]);
  });

  it('splits a backlog (the phone was offline) into batches the server accepts', async () => {
    const s = server();
    const all = fixes(2 * MAX_FIXES_PER_UPLOAD + 10);
    expect(await uploadPending({ positions: all, uploaded: 0 }, s.send)).toEqual({ uploaded: all.length, gone: false });
    expect(s.received.map((b) => b.length)).toEqual([MAX_FIXES_PER_UPLOAD, MAX_FIXES_PER_UPLOAD, 10]);
  });

  it('keeps what failed for the next round, and stops on a closed session', async () => {
    const all = fixes(2 * MAX_FIXES_PER_UPLOAD);
    const flaky = server('sent', 'failed');
    expect(await uploadPending({ positions: all, uploaded: 0 }, flaky.send)).toEqual({
      uploaded: MAX_FIXES_PER_UPLOAD,
      gone: false,
    });
    const gone = server('gone');
    expect(await uploadPending({ positions: all, uploaded: 0 }, gone.send)).toEqual({ uploaded: 0, gone: true });
  });
});
