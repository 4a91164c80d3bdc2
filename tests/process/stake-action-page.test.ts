import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { closeInChunks } from '../../app-server/process/goal-lifecycle/goal-clock.ts';
import { ActionPage } from '../../app-server/process/stakes/action-page.ts';
import { isProviderTrouble, performAction } from '../../app-server/process/stakes/perform-action.ts';
import { dueActions, markRetry, type StakeActionRow } from '../../app-server/process/stakes/stake-action-row.ts';
import { tickStakeClock } from '../../app-server/process/stakes/stake-clock.ts';
import type { GoalCommand } from '../../domain/goal/commands.ts';
import { goalDecider } from '../../domain/goal/decide.ts';
import { type EventStore, WrongExpectedVersionError } from '../../domain/shared/event-store.ts';
import { stakeIdForGoal } from '../../domain/stake/from-goal.ts';
import { audit, localGateway, saveCard, stakedGoal } from '../money/money-fixtures.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, settle, type TestUser } from '../support/users.ts';

/*
 * The action worker records a page of provider answers with one append and closes its rows with one statement
 * (action-page.ts). It must store what performing each action alone stores (a page of one): two twin worlds of the
 * same runners and stakes, one worked in pages, the other action by action, through holds, a release, a forfeit,
 * settlement (capture, a lapsed hold charged off-session, a declined card). Their stake streams, release outcomes and
 * action rows must agree, ids aside. And a page whose append lost a race (a webhook recorded an answer first) writes
 * nothing of itself, then records each answer alone, as the twin does.
 */

type Store = EventStore<Transaction<object>>;
const ROLES = ['met', 'missed', 'lapsed', 'canceled', 'declined'] as const;
type Role = (typeof ROLES)[number];
type Twin = Record<Role, { user: TestUser; goalId: string }>;
const CARDS: Record<Role, string> = {
  met: 'pm_card_mastercard',
  missed: 'pm_card_mastercard',
  lapsed: 'pm_card_visa',
  canceled: 'pm_card_mastercard',
  declined: 'pm_card_visa',
};

describe.each(databaseTargets())('stake actions in pages on %s', (target) => {
  let rt: TestRuntime;
  let paged: Twin;
  let alone: Twin;

  async function world(name: string): Promise<Twin> {
    const twin = {} as Twin;
    for (const role of ROLES) {
      const user = await createTestUser(rt, `${name}-${role}`);
      const pm = await saveCard(rt, user, CARDS[role]);
      twin[role] = { user, goalId: await stakedGoal(rt, user, { pm, cents: 2000 }) };
    }
    return twin;
  }
  const goal = (goalId: string, command: GoalCommand) =>
    executeCommand(rt.store, goalDecider, `goal-${goalId}`, command, {
      actorId: 'test',
      correlationId: 'stake-action-page-test',
      now: rt.clock.now(),
      newEventId: () => randomUUID(),
    });
  const instant = () => Temporal.Instant.fromEpochMilliseconds(rt.clock.now().getTime());
  const stakeIds = (twin: Twin) => new Set(ROLES.map((r) => stakeIdForGoal(twin[r].goalId)));

  /** The twin's due actions: in one page, or each in a page of its own; as the settlement process works a page. */
  async function work(twin: Twin, inPages: boolean, store: Store = rt.store) {
    const mine = stakeIds(twin);
    const due = (await dueActions(rt.database.db, rt.clock.now(), 1000)).filter((a) => mine.has(a.stake_id));
    const pages: StakeActionRow[][] = inPages ? [due] : due.map((a) => [a]);
    const gateway = localGateway(rt);
    for (const page of pages) {
      const now = rt.clock.now();
      const recorder = await ActionPage.open(page, { db: rt.database.db, store, now });
      for (const action of page) {
        try {
          await performAction(action, { db: rt.database.db, gateway, now, page: recorder });
        } catch (error) {
          if (!isProviderTrouble(error)) throw error;
          await markRetry(rt.database.db, action, String(error), now);
        }
      }
      await recorder.commit();
    }
    return due.length;
  }

  /** Both twins' due actions, then the handlers, the stake clock and the handlers again, until nothing is due. */
  async function round(store?: Store) {
    for (let i = 0; i < 6; i++) {
      await localGateway(rt).sweepExpiredHolds();
      await settle(rt);
      const worked = (await work(paged, true, store)) + (await work(alone, false, store));
      await settle(rt);
      await tickStakeClock({ db: rt.database.db, store: rt.store, now: rt.clock.now() });
      await settle(rt);
      if (worked === 0) return;
    }
  }

  /** What a twin's money looks like, with its own ids named by role: stake streams, release outcomes, action rows. */
  async function money(twin: Twin) {
    const names: [string, string][] = [];
    for (const role of ROLES) {
      names.push([stakeIdForGoal(twin[role].goalId), `${role}-stake`], [twin[role].goalId, `${role}-goal`]);
      names.push([twin[role].user.id, `${role}-user`]);
    }
    const scrub = (value: unknown) => {
      let text = JSON.stringify(value);
      for (const [id, name] of names) text = text.split(id).join(name);
      return JSON.parse(text.replace(/\b(pi|pm|cus|ch|re|seti)_[A-Za-z0-9]+/g, '$1_x')) as unknown;
    };
    const out: Record<string, unknown> = {};
    for (const role of ROLES) {
      const stakeId = stakeIdForGoal(twin[role].goalId);
      const stream = await rt.store.readStream(`stake-${stakeId}`);
      // Closed or not, set aside or not; not the result's wording: the event handler closes a row too when the outcome
      // event arrives, and whichever of the two comes first names the result (as when actions are performed alone).
      const { rows } = await sql<{ idempotency_key: string; kind: string; done: boolean; review: boolean }>`
        SELECT idempotency_key, kind, done_at IS NOT NULL AS done, needs_review AS review FROM stake_actions
        WHERE stake_id = ${stakeId} ORDER BY idempotency_key`.execute(rt.database.db);
      const releases = [];
      for (const row of rows.filter((r) => r.kind === 'release')) {
        releases.push((await rt.store.readStream(`stake-release-${row.idempotency_key}`)).map((e) => e.data));
      }
      out[role] = scrub({ events: stream.map((e) => [e.type, e.data]), rows, releases });
    }
    return out;
  }

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z' });
    paged = await world('paged');
    alone = await world('alone');
    await settle(rt);
  }, 120_000);
  afterAll(() => rt?.close());

  it('stores what performing each action alone stores: holds, a release, a forfeit, settlement', async () => {
    await round(); // the holds
    expect(await money(paged)).toEqual(await money(alone));
    rt.clock.set('2026-11-17T18:00:00Z');
    for (const twin of [paged, alone]) {
      await goal(twin.met.goalId, { type: 'RecordProgress', progress: 2, now: instant() });
      await goal(twin.canceled.goalId, { type: 'CancelGoal', userId: twin.canceled.user.id, now: instant() });
    }
    await settle(rt);
    await round(); // the release and the forfeit
    expect(await money(paged)).toEqual(await money(alone));
    // Settlement: Monday 06:00 UTC, after Monday 00:00 New York; the Visa holds lapsed meanwhile.
    rt.clock.set('2026-11-23T06:00:00Z');
    const ids = [paged, alone].flatMap((t) => ROLES.map((r) => ({ id: t[r].goalId })));
    await closeInChunks(ids, { db: rt.database.db, store: rt.store, now: rt.clock.now() });
    await settle(rt);
    await round();
    await round();
    const settled = await money(paged);
    expect(settled).toEqual(await money(alone));
    expect(JSON.stringify(settled)).toContain('StakeCollected');
    const report = await audit(rt);
    expect(report.violations).toEqual([]);
    expect(report.openReleases).toEqual([]);
  });

  it('a page whose append lost a race writes nothing of itself, then records each answer alone', async () => {
    // Two more twins, settled the Monday after; a webhook records the missed stake's answer before the page does.
    rt.clock.set('2026-11-23T15:00:00Z');
    paged = await world('raced');
    alone = await world('reference');
    await settle(rt);
    await round();
    rt.clock.set('2026-11-30T06:00:00Z');
    const ids = [paged, alone].flatMap((t) => ROLES.map((r) => ({ id: t[r].goalId })));
    await closeInChunks(ids, { db: rt.database.db, store: rt.store, now: rt.clock.now() });
    await settle(rt);
    await tickStakeClock({ db: rt.database.db, store: rt.store, now: rt.clock.now() });
    await settle(rt);
    let lost = 0;
    const victims = new Set([paged, alone].map((t) => `stake-${stakeIdForGoal(t.missed.goalId)}`));
    const racing: Store = Object.create(rt.store, {
      appendToStreams: {
        value: async (...args: Parameters<Store['appendToStreams']>) => {
          const [appends] = args;
          const first = appends.find((a) => victims.has(a.streamId));
          if (first) {
            victims.delete(first.streamId);
            // The webhook: the same answer, recorded first by another writer with its own event ids.
            const events = first.events.map((e) => ({ ...e, metadata: { ...e.metadata, eventId: randomUUID() } }));
            await rt.store.appendToStream(first.streamId, events, { expectedVersion: first.expectedVersion });
          }
          try {
            return await rt.store.appendToStreams(...args);
          } catch (error) {
            if (error instanceof WrongExpectedVersionError) lost += 1;
            throw error;
          }
        },
      },
    });
    await round(racing);
    await round();
    expect(lost).toBe(2); // the paged twin's page, and the reference's own page of one
    expect(await money(paged)).toEqual(await money(alone));
    const report = await audit(rt);
    expect(report.violations).toEqual([]);
    expect(report.openReleases).toEqual([]);
  });
});
