import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupDecider } from '../../../../domain/group/decide.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../../../support/test-runtime.ts';
import { HistoryWriter } from './history-writer.ts';

const NOW = new Date('2026-11-18T12:00:00Z');
const create = (groupId: string, ownerId: string) =>
  ({
    type: 'CreateGroup',
    groupId,
    name: 'Morning Runners',
    ownerId,
    inviteCode: 'ABCDEFGH',
    inviteExpiresAt: '2026-12-01T00:00:00Z',
    now: Temporal.Instant.fromEpochMilliseconds(NOW.getTime()),
  }) as const;
const join = (userId: string) =>
  ({
    type: 'JoinGroup',
    userId,
    inviteCode: 'ABCDEFGH',
    now: Temporal.Instant.fromEpochMilliseconds(NOW.getTime()),
  }) as const;

describe.each(databaseTargets())('HistoryWriter (the seed’s batch writer) on %s', (target) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(target, { workers: false });
  });
  afterAll(() => rt?.close());

  it('appends what the deciders decide, stream by stream, with exact revisions across flushes', async () => {
    const writer = new HistoryWriter(rt.store, rt.database.db);
    writer.decide(groupDecider, 'group-g1', create('g1', 'u1'), { actorId: 'u1', now: NOW });
    writer.decide(groupDecider, 'group-g1', join('u2'), { actorId: 'u2', now: NOW });
    expect(await writer.flush()).toBe(2);
    writer.decide(groupDecider, 'group-g1', join('u3'), { actorId: 'u3', now: NOW });
    expect(await writer.flush()).toBe(1);

    const events = await rt.store.readStream('group-g1');
    expect(events.map((e) => [e.type, e.streamRevision, e.metadata.actorId])).toEqual([
      ['GroupCreated', 0, 'u1'],
      ['MemberJoined', 1, 'u2'],
      ['MemberJoined', 2, 'u3'],
    ]);
  });

  it('refuses what the decider refuses, against the state it folded, and writes nothing for it', async () => {
    const writer = new HistoryWriter(rt.store, rt.database.db);
    writer.decide(groupDecider, 'group-g2', create('g2', 'u1'), { actorId: 'u1', now: NOW });
    writer.decide(groupDecider, 'group-g2', join('u2'), { actorId: 'u2', now: NOW });
    expect(() => writer.decide(groupDecider, 'group-g2', join('u2'), { actorId: 'u2', now: NOW })).toThrow(/group-g2/);
    await writer.flush();
    expect(await rt.store.readStream('group-g2')).toHaveLength(2);
  });

  it('flushes many streams over several transactions without losing one', async () => {
    const writer = new HistoryWriter(rt.store, rt.database.db);
    for (let g = 0; g < 1_000; g++)
      writer.decide(groupDecider, `group-many-${g}`, create(`many-${g}`, 'u1'), { actorId: 'u1', now: NOW });
    expect(await writer.flush()).toBe(1_000);
    const counts = await Promise.all(
      [0, 49, 50, 999].map(async (g) => (await rt.store.readStream(`group-many-${g}`)).length),
    );
    expect(counts).toEqual([1, 1, 1, 1]);
    expect(await writer.flush()).toBe(0);
  });
});
