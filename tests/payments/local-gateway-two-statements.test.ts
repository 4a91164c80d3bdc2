import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalPaymentGateway } from '../../app-server/adapters/payments/local/local-gateway.ts';
import { PaymentGatewayError } from '../../app-server/adapters/payments/payment-errors.ts';
import { ManualClock } from '../../app-server/clock.ts';
import { type Database, openDatabase } from '../../app-server/db/database.ts';
import { migrateToLatest } from '../../app-server/db/migrate.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

/*
 * Twin worlds for the local gateway's short way (a hold or a charge in two statements, the sweep a thousand holds at a
 * time): the same runners, cards and calls at the same instants, once the short way and once through runIdempotent's
 * transaction with holds lapsing one by one (the reference). What each world stores must agree: the PaymentIntents,
 * their webhook events in order, the answers and the answers kept under each key, refusals and replays included.
 */

type Target = 'pglite' | 'postgres';
const targets: Target[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const HOUR = 3_600_000;
const START = '2026-11-23T05:00:00.000Z';

type World = {
  readonly database: Database;
  readonly gateway: LocalPaymentGateway;
  readonly clock: ManualClock;
  readonly drop: (() => Promise<void>) | undefined;
};

async function openWorld(target: Target, short: boolean): Promise<World> {
  let drop: (() => Promise<void>) | undefined;
  let database: Database;
  if (target === 'postgres') {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!, short ? 'ss_pay_short' : 'ss_pay_ref');
    drop = scratch.drop;
    database = await openDatabase({ databaseUrl: scratch.url });
  } else {
    database = await openMemoryDatabase();
  }
  await migrateToLatest(database.db);
  const clock = new ManualClock(START);
  const gateway = new LocalPaymentGateway({
    db: database.db,
    clock,
    webhookSecret: 'whsec_twin',
    paymentsInTwoStatements: short,
    sweepChunk: 2,
  });
  return { database, gateway, clock, drop };
}

/** What a call answered: the value, or the error's code and provider code. */
async function answer(call: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await call };
  } catch (error) {
    if (!(error instanceof PaymentGatewayError)) throw error;
    return { error: error.code, providerCode: error.providerCode ?? null, message: error.message };
  }
}

/** The script both worlds play: every card behaviour, held and charged, replays, mismatches, refusals, lapses. */
async function play(world: World, lapseOneByOne: boolean): Promise<unknown[]> {
  const { gateway, clock } = world;
  const answers: unknown[] = [];
  const cards = [
    ['visa', '4242 4242 4242 4242'],
    ['mastercard', '5555 5555 5555 4444'],
    ['funds', '4000 0000 0000 9995'],
    ['fails', '4000 0000 0000 0341'],
    ['asks-on-setup', '4000 0025 0000 3155'],
    ['asks-always', '4000 0027 6000 3184'],
  ] as const;
  const runners: { name: string; customerId: string; paymentMethodId: string }[] = [];
  for (const [name, card] of cards) {
    const { customerId } = await gateway.ensureCustomer({ userId: `user-${name}`, email: `${name}@example.com` });
    const { setupIntentId } = await gateway.createSetupIntent({ customerId });
    let setup = await gateway.confirmSetupIntent({ setupIntentId, card });
    if (setup.status === 'requires_action')
      setup = await gateway.authenticateSetupIntent({ setupIntentId, approve: true });
    if (setup.paymentMethodId === null) throw new Error(`${name} not saved`);
    runners.push({ name, customerId, paymentMethodId: setup.paymentMethodId });
  }
  const pay = (r: (typeof runners)[number], what: string, amountCents = 2000) => ({
    customerId: r.customerId,
    paymentMethodId: r.paymentMethodId,
    amountCents,
    idempotencyKey: `${what}-${r.name}`,
    metadata: { case: `${what}-${r.name}` },
  });
  for (const r of runners) {
    answers.push(await answer(gateway.placeHold(pay(r, 'hold'))));
    answers.push(await answer(gateway.placeHold({ ...pay(r, 'hold-present'), customerPresent: true })));
    clock.advance(60_000);
    answers.push(await answer(gateway.chargeOffSession(pay(r, 'charge', 1500))));
    // The same key replays the first answer; with other parameters it is a mismatch.
    answers.push(await answer(gateway.chargeOffSession(pay(r, 'charge', 1500))));
    answers.push(await answer(gateway.chargeOffSession(pay(r, 'charge', 1600))));
    answers.push(await answer(gateway.placeHold(pay(r, 'charge', 1500))));
  }
  const [visa, mastercard] = [runners[0]!, runners[1]!];
  // A Stripe test token used directly; another customer's card; an unknown customer; an unknown card. The refusals
  // are kept under their keys and replayed.
  answers.push(
    await answer(gateway.chargeOffSession({ ...pay(visa, 'token'), paymentMethodId: 'pm_card_mastercard' })),
  );
  for (let i = 0; i < 2; i++) {
    answers.push(
      await answer(gateway.placeHold({ ...pay(visa, 'not-owned'), paymentMethodId: mastercard.paymentMethodId })),
    );
    answers.push(await answer(gateway.placeHold({ ...pay(visa, 'no-customer'), customerId: 'cus_unknown' })));
    answers.push(await answer(gateway.chargeOffSession({ ...pay(visa, 'no-card'), paymentMethodId: 'pm_unknown' })));
  }
  // Calls made side by side, as a stake tick's lanes make them: the short way sends them in shared statements
  // (GroupedStatements), a key asked for twice at once and the refusals among them included.
  answers.push(
    ...(await Promise.all([
      ...runners.map((r) => answer(gateway.placeHold(pay(r, 'burst')))),
      answer(gateway.chargeOffSession(pay(visa, 'burst-twice', 1200))),
      answer(gateway.chargeOffSession(pay(visa, 'burst-twice', 1200))),
      answer(gateway.placeHold({ ...pay(visa, 'burst-not-owned'), paymentMethodId: mastercard.paymentMethodId })),
      answer(gateway.placeHold({ ...pay(visa, 'burst-no-customer'), customerId: 'cus_unknown' })),
      ...runners.map((r) => answer(gateway.chargeOffSession(pay(r, 'burst-charge', 700)))),
    ])),
  );
  // Captures and releases of holds: whole and in part, replayed, mismatched, too large, of a hold already moved, of an
  // unknown PaymentIntent; then side by side, as the stake tick's lanes make them, a key asked twice at once among them.
  const intent = async (name: string) =>
    (
      await sql<{ id: string }>`
        SELECT id FROM payments_local_payment_intents WHERE metadata->>'case' = ${name}`.execute(world.database.db)
    ).rows[0]!.id;
  const capture = (name: string, amountCents: number, key: string) =>
    intent(name).then((paymentIntentId) => gateway.captureHold({ paymentIntentId, amountCents, idempotencyKey: key }));
  const release = (name: string, key: string) =>
    intent(name).then((paymentIntentId) => gateway.releaseHold({ paymentIntentId, idempotencyKey: key }));
  answers.push(await answer(capture('hold-visa', 1500, 'cap-part')));
  answers.push(await answer(capture('hold-visa', 1500, 'cap-part')));
  answers.push(await answer(capture('hold-visa', 1400, 'cap-part')));
  answers.push(await answer(release('hold-visa', 'rel-after-capture')));
  answers.push(await answer(capture('hold-mastercard', 2500, 'cap-too-much')));
  answers.push(await answer(release('hold-mastercard', 'rel')));
  answers.push(await answer(release('hold-mastercard', 'rel')));
  answers.push(await answer(release('hold-mastercard', 'cap-part')));
  answers.push(await answer(capture('hold-mastercard', 2000, 'cap-after-release')));
  answers.push(
    await answer(gateway.captureHold({ paymentIntentId: 'pi_unknown', amountCents: 100, idempotencyKey: 'cap-x' })),
  );
  answers.push(await answer(gateway.releaseHold({ paymentIntentId: 'pi_unknown', idempotencyKey: 'rel-x' })));
  answers.push(
    ...(await Promise.all([
      answer(capture('burst-visa', 2000, 'burst-cap')),
      answer(capture('burst-visa', 2000, 'burst-cap')),
      answer(release('burst-mastercard', 'burst-rel')),
      answer(release('hold-present-mastercard', 'burst-rel-2')),
      answer(capture('hold-mastercard', 1000, 'burst-cap-released')),
      answer(release('hold-visa', 'burst-rel-captured')),
    ])),
  );
  // A card that stopped paying, and a detached card.
  await gateway.setCardBehaviour(mastercard.paymentMethodId, 'insufficient_funds');
  answers.push(await answer(gateway.chargeOffSession(pay(mastercard, 'after-block'))));
  await gateway.detachPaymentMethod({ customerId: visa.customerId, paymentMethodId: visa.paymentMethodId });
  answers.push(await answer(gateway.chargeOffSession(pay(visa, 'after-detach'))));
  // A capture of one hold, then the deadlines pass: every Visa hold lapses, later every hold.
  const held = (
    await sql<{ id: string }>`
      SELECT id FROM payments_local_payment_intents WHERE metadata->>'case' = 'hold-present-visa'`.execute(
      world.database.db,
    )
  ).rows[0]!;
  answers.push(
    await answer(gateway.captureHold({ paymentIntentId: held.id, amountCents: 2000, idempotencyKey: 'cap' })),
  );
  for (const hours of [5 * 24, 8 * 24]) {
    clock.set(new Date(Date.parse(START) + hours * HOUR));
    if (lapseOneByOne) {
      // The reference: each hold past its deadline lapses when it is next touched, in the order of the deadlines.
      const due = await sql<{ id: string }>`
        SELECT id FROM payments_local_payment_intents
        WHERE status = 'requires_capture' AND capture_before <= ${clock.now()}
        ORDER BY capture_before, metadata->>'case'`.execute(world.database.db);
      for (const { id } of due.rows) await gateway.retrievePaymentIntent(id);
      answers.push({ swept: due.rows.length });
    } else {
      answers.push({ swept: await gateway.sweepExpiredHolds() });
    }
    answers.push({ sweptAgain: await gateway.sweepExpiredHolds() });
  }
  return answers;
}

/** What a world stored, with its random ids replaced by the case each PaymentIntent was made for. */
async function stored(world: World) {
  const db = world.database.db;
  const intents = (
    await sql<Record<string, unknown> & { id: string; metadata: { case: string } }>`
      SELECT * FROM payments_local_payment_intents`.execute(db)
  ).rows;
  const names = new Map(intents.map((pi) => [pi.id, pi.metadata.case]));
  const customers = (
    await sql<{ id: string; user_id: string }>`SELECT id, user_id FROM payments_local_customers`.execute(db)
  ).rows;
  const methods = (
    await sql<{ id: string; customer_id: string | null; last4: string }>`
      SELECT id, customer_id, last4 FROM payments_local_payment_methods`.execute(db)
  ).rows;
  for (const c of customers) names.set(c.id, c.user_id);
  for (const m of methods) names.set(m.id, `card-${m.last4}`);
  const rename = (text: string) =>
    text.replace(/\b(pi|cus|pm|evt)_[0-9a-f]{24}\b/g, (id) => names.get(id) ?? `<${id.slice(0, 3)}>`);
  const normal = (value: unknown) =>
    JSON.parse(rename(JSON.stringify(value).replace(/\b(pi|seti)_[0-9a-f]{24}_secret_[0-9a-f]+/g, 'secret')));
  const events = (
    await sql<{ type: string; payment_intent_id: string; body: string; created_at: Date }>`
      SELECT type, payment_intent_id, body, created_at FROM payments_local_events ORDER BY sequence`.execute(db)
  ).rows;
  // Each PaymentIntent's events in the order they were recorded (the worlds may interleave PaymentIntents otherwise).
  const eventsByIntent: Record<string, unknown[]> = {};
  for (const e of events) {
    const body = JSON.parse(e.body) as { id: string };
    const name = names.get(e.payment_intent_id)!;
    eventsByIntent[name] = [
      ...(eventsByIntent[name] ?? []),
      normal({ type: e.type, at: e.created_at.toISOString(), body: { ...body, id: 'evt' } }),
    ];
  }
  const keys = (
    await sql<{ key: string; response: unknown; created_at: Date }>`
      SELECT key, response, created_at FROM payments_local_idempotency ORDER BY key`.execute(db)
  ).rows.map((k) => normal(k));
  const byCase = Object.fromEntries(
    intents.map((pi) => [pi.metadata.case, normal({ ...pi, id: pi.metadata.case, client_secret: 'secret' })]),
  );
  return { normal, intents: byCase, events: eventsByIntent, keys };
}

describe.each(targets)('local gateway in two statements, twin worlds on %s', (target) => {
  let short: World;
  let reference: World;
  beforeAll(async () => {
    [short, reference] = await Promise.all([openWorld(target, true), openWorld(target, false)]);
  });
  afterAll(async () => {
    for (const world of [short, reference]) {
      await world.database.close();
      await world.drop?.();
    }
  });

  it('stores what runIdempotent and lapsing one by one store: intents, events, kept answers; answers alike', async () => {
    const answersShort = await play(short, false);
    const answersReference = await play(reference, true);
    const a = await stored(short);
    const b = await stored(reference);
    expect(a.normal(answersShort)).toEqual(b.normal(answersReference));
    expect(a.intents).toEqual(b.intents);
    expect(a.events).toEqual(b.events);
    expect(a.keys).toEqual(b.keys);
    // The script went through every branch: held, charged, declined, authentication, replays, refusals, lapses.
    const flat = JSON.stringify(answersShort);
    for (const seen of [
      '"held"',
      '"succeeded"',
      '"declined"',
      '"authentication_required"',
      'idempotency_mismatch',
      'not_found',
      '"captured"',
      '"released"',
      '"already_captured"',
      '"expired"',
    ]) {
      expect(flat).toContain(seen);
    }
    expect(
      Object.values(a.intents).filter(
        (pi) => (pi as { cancellation_reason: string }).cancellation_reason === 'automatic',
      ).length,
    ).toBeGreaterThan(2);
  });

  it('a capture and a release of one hold at once: one moves it, the other answers what happened', async () => {
    const { gateway } = short;
    const { customerId } = await gateway.ensureCustomer({ userId: 'user-race', email: 'race@example.com' });
    for (let i = 0; i < 12; i++) {
      const hold = await gateway.placeHold({
        customerId,
        paymentMethodId: 'pm_card_visa',
        amountCents: 3000,
        idempotencyKey: `race-hold-${i}`,
        metadata: { case: `race-${i}` },
      });
      if (hold.status !== 'held') throw new Error('the hold was not placed');
      const paymentIntentId = hold.paymentIntentId;
      const eventsOf = async () =>
        (
          await sql<{ type: string }>`
            SELECT type FROM payments_local_events WHERE payment_intent_id = ${paymentIntentId} ORDER BY sequence`.execute(
            short.database.db,
          )
        ).rows.map((e) => e.type);
      const before = (await eventsOf()).length;
      // Started in either order.
      const capture = () =>
        answer(gateway.captureHold({ paymentIntentId, amountCents: 3000, idempotencyKey: `race-cap-${i}` }));
      const release = () => answer(gateway.releaseHold({ paymentIntentId, idempotencyKey: `race-rel-${i}` }));
      const [captured, released] =
        i % 2 === 0
          ? await Promise.all([capture(), release()])
          : await Promise.all([release(), capture()]).then(([r, c]) => [c, r]);
      const { rows } = await sql<{ status: string; amount_received: number }>`
        SELECT status, amount_received FROM payments_local_payment_intents WHERE id = ${paymentIntentId}`.execute(
        short.database.db,
      );
      const moves = (await eventsOf()).slice(before);
      expect(moves).toHaveLength(1);
      if (rows[0]!.status === 'succeeded') {
        expect(captured).toEqual({ ok: { status: 'captured', paymentIntentId, amountCapturedCents: 3000 } });
        expect(released).toEqual({ ok: { status: 'already_captured', paymentIntentId, amountCapturedCents: 3000 } });
        expect(moves).toEqual(['payment_intent.succeeded']);
      } else {
        expect(rows[0]!.status).toBe('canceled');
        expect(released).toEqual({ ok: { status: 'released', paymentIntentId } });
        expect(captured).toEqual({ ok: { status: 'expired', paymentIntentId } });
        expect(moves).toEqual(['payment_intent.canceled']);
      }
    }
  });

  it('concurrent first calls with one key make one PaymentIntent and all answer alike', async () => {
    const { gateway } = short;
    const { customerId } = await gateway.ensureCustomer({ userId: 'user-concurrent', email: 'c@example.com' });
    const call = () =>
      gateway.chargeOffSession({
        customerId,
        paymentMethodId: 'pm_card_visa',
        amountCents: 2500,
        idempotencyKey: 'concurrent-charge',
        metadata: { case: 'concurrent' },
      });
    const answers = await Promise.all(Array.from({ length: 6 }, call));
    for (const a of answers) expect(a).toEqual(answers[0]);
    const { rows } = await sql<{ id: string }>`
      SELECT id FROM payments_local_payment_intents WHERE customer_id = ${customerId}`.execute(short.database.db);
    expect(rows).toHaveLength(1);
    const events = await sql<{ type: string }>`
      SELECT type FROM payments_local_events WHERE payment_intent_id = ${rows[0]!.id} ORDER BY sequence`.execute(
      short.database.db,
    );
    expect(events.rows.map((e) => e.type)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
  });
});
