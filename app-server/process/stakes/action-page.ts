import { type Kysely, sql, type Transaction } from 'kysely';
import type { StakeCommand } from '../../../domain/stake/commands.ts';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import type { StakeEvent } from '../../../domain/stake/events.ts';
import type { StakeState } from '../../../domain/stake/state.ts';
import {
  type EventStore,
  StreamOrderConflictError,
  WrongExpectedVersionError,
} from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { processMetadata, toNewEvent } from '../../commands/event-metadata.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { recordReleaseConfirmed, type StakeHoldReleaseConfirmed } from './release-confirmed.ts';
import { AttemptMarks, closeActionRows, type StakeActionRow } from './stake-action-row.ts';

/** Points where a test may kill the run (after the provider answered, and after the outcome was recorded). */
export type StakeFaults = { at(step: 'before-outcome' | 'after-outcome', key: string): void };

/** How an action's row ends: done with a result, or set aside for an operator. */
type RowEnd = { readonly key: string } & ({ readonly result: string } | { readonly review: string });

/** A provider's answer to record on the stake stream, with what deciding it in memory came to. */
type Outcome = { readonly action: StakeActionRow; readonly command: StakeCommand; end: RowEnd };

/**
 * One page of stake actions, worked with a round trip per page instead of several per action: the page's stakes are
 * read in one query (and their customers in one more) before any call; each provider answer is decided in memory by
 * the pure stake decider, folded in (so the stake's next action in the page sees it), and the page's outcomes are
 * appended in one statement, each stake stream expecting the revision it was read at; then one statement closes the
 * page's rows. What stays per action is what a crash must find: the attempt mark, committed before the call.
 *
 * A stream written meanwhile (a webhook, the event handler settling a miss) fails the page's append and nothing of it
 * is written: the outcomes are then recorded one by one from fresh reads, as performing the actions alone would. A
 * crash before the page's append loses only answers the provider keeps under the actions' deterministic keys: the
 * next tick asks again with the same key (or re-fetches the PaymentIntent) and records them then.
 */
export class ActionPage {
  readonly #db: Kysely<object>;
  readonly #store: EventStore<Transaction<object>>;
  readonly #now: Date;
  readonly #faults: StakeFaults | undefined;
  readonly #stakes: DecisionBatch<StakeCommand, StakeEvent, StakeState>;
  readonly #customers: Map<string, string>;
  readonly #outcomes: Outcome[] = [];
  readonly #releases: { action: StakeActionRow; event: StakeHoldReleaseConfirmed; result: string }[] = [];
  readonly #ends: RowEnd[] = [];
  readonly #marks: AttemptMarks;

  private constructor(
    db: Kysely<object>,
    store: EventStore<Transaction<object>>,
    now: Date,
    faults: StakeFaults | undefined,
    stakes: DecisionBatch<StakeCommand, StakeEvent, StakeState>,
    customers: Map<string, string>,
  ) {
    this.#db = db;
    this.#store = store;
    this.#now = now;
    this.#faults = faults;
    this.#stakes = stakes;
    this.#customers = customers;
    this.#marks = new AttemptMarks(db, now);
  }

  /** Reads the page's stakes (one query) and their owners' processor customers (one more). */
  static async open(
    page: readonly StakeActionRow[],
    deps: { db: Kysely<object>; store: EventStore<Transaction<object>>; now: Date; faults?: StakeFaults | undefined },
  ): Promise<ActionPage> {
    const stakes = new DecisionBatch(deps.store, stakeDecider, undefined, { rememberStates: true });
    await stakes.load(page.map((a) => streams.stake(a.stake_id)));
    const users = new Set<string>();
    for (const a of page) {
      const state = await stakes.state(streams.stake(a.stake_id));
      if (state.status !== 'none') users.add(state.terms.userId);
    }
    const { rows } = await sql<{ user_id: string; customer_id: string }>`
      SELECT user_id, customer_id FROM payment_customers WHERE user_id = ANY(${[...users]}::text[])`.execute(deps.db);
    const customers = new Map(rows.map((r) => [r.user_id, r.customer_id]));
    return new ActionPage(deps.db, deps.store, deps.now, deps.faults, stakes, customers);
  }

  /** The stake as read at the page's start, with the outcomes decided in this page folded in. */
  stake(stakeId: string): Promise<StakeState> {
    return this.#stakes.state(streams.stake(stakeId));
  }

  /** The user's processor customer, or null when none was ever created. */
  customerId(userId: string): string | null {
    return this.#customers.get(userId) ?? null;
  }

  /**
   * Notes that the provider is about to be called for the action: resolves once the mark is committed, so a later run
   * knows the call may have happened. Marks asked for at once by the page's lanes share a statement (AttemptMarks).
   */
  attempt(action: StakeActionRow): Promise<void> {
    return this.#marks.mark(action.idempotency_key);
  }

  /** Closes the action's row with `result` (written with the page). */
  done(action: StakeActionRow, result: string): void {
    this.#ends.push({ key: action.idempotency_key, result });
  }

  /** Sets the action aside for an operator (written with the page). */
  review(action: StakeActionRow, why: string): void {
    this.#ends.push({ key: action.idempotency_key, review: why });
  }

  /**
   * The provider's answer as a stake command, decided now in memory: a refusal means the stake already moved on (a
   * webhook was first), a wrong amount needs an operator. Appended with the page.
   */
  async outcome(action: StakeActionRow, command: StakeCommand): Promise<void> {
    this.#faults?.at('before-outcome', action.idempotency_key);
    const decided = await this.#stakes.decide(streams.stake(action.stake_id), command, this.#metadata(action));
    this.#outcomes.push({ action, command, end: endOf(action, command, decided.ok ? null : decided.refusal) });
  }

  /** A release's answer, in the release's own stream (release-confirmed.ts). Appended with the page. */
  released(action: StakeActionRow, event: StakeHoldReleaseConfirmed): void {
    this.#faults?.at('before-outcome', action.idempotency_key);
    this.#releases.push({ action, event, result: event.data.result });
  }

  /** Appends the page's outcomes, then closes its rows: a few statements for the whole page. */
  async commit(): Promise<void> {
    try {
      await this.#stakes.flush();
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError || error instanceof StreamOrderConflictError)) throw error;
      for (const o of this.#outcomes) o.end = await this.#recordAlone(o);
    }
    await this.#appendReleases();
    for (const o of [...this.#outcomes.map((o) => o.action), ...this.#releases.map((r) => r.action)]) {
      this.#faults?.at('after-outcome', o.idempotency_key);
    }
    const ends = [
      ...this.#ends,
      ...this.#outcomes.map((o) => o.end),
      ...this.#releases.map((r) => ({ key: r.action.idempotency_key, result: r.result })),
    ];
    await closeActionRows(this.#db, ends, this.#now);
  }

  /** The release outcomes in one statement; one already recorded (a repeat after a crash) sends them one by one. */
  async #appendReleases(): Promise<void> {
    if (this.#releases.length === 0) return;
    try {
      await this.#store.appendToStreams(
        this.#releases.map(({ event }) => ({
          streamId: streams.stakeRelease(event.data.idempotencyKey),
          events: [toNewEvent(event, releaseMetadata(event, this.#now))],
          expectedVersion: 'no_stream' as const,
        })),
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError || error instanceof StreamOrderConflictError)) throw error;
      for (const { event } of this.#releases) await recordReleaseConfirmed(this.#store, event, this.#now);
    }
  }

  /** One outcome on its own from a fresh read (the page lost a race): what performing the action alone records. */
  async #recordAlone({ action, command }: Outcome): Promise<RowEnd> {
    try {
      await executeCommand(this.#store, stakeDecider, streams.stake(action.stake_id), command, this.#metadata(action));
      return endOf(action, command, null);
    } catch (error) {
      if (!(error instanceof DomainRefusal)) throw error;
      return endOf(action, command, error.reason);
    }
  }

  #metadata(action: StakeActionRow) {
    return processMetadata('stakes', this.#now, `stakes-${action.idempotency_key}`);
  }
}

/** The row's end for an outcome: its command's name, the refusal's code, or an operator for a wrong amount. */
function endOf(
  action: StakeActionRow,
  command: StakeCommand,
  refusal: { code: string; message: string } | null,
): RowEnd {
  const key = action.idempotency_key;
  if (refusal === null) return { key, result: command.type };
  if (refusal.code === 'wrong_amount') return { key, review: `${command.type}: ${refusal.message}` };
  return { key, result: `${command.type}:${refusal.code}` };
}

/** The metadata recordReleaseConfirmed gives a release outcome. */
function releaseMetadata(event: StakeHoldReleaseConfirmed, now: Date) {
  return processMetadata('stakes', now, `stakes-release-${event.data.idempotencyKey}`);
}
