import type { Transaction } from 'kysely';
import type { LogPosition } from '../../domain/shared/event-store.ts';

/**
 * What one member of a group gets back: its own value, or its own error (a refusal of that request alone).
 */
export type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** What a request appended: the event types and the position of each append (http/request-writes.ts notes them). */
export interface AppendedWrites {
  readonly eventTypes: readonly string[];
  readonly positions: readonly LogPosition[];
}

/**
 * What a group's command made of one member, once its transaction commits: the member's result, and what it appended,
 * which its request's read-your-writes wait follows (null: unknown, so it waits for every read model).
 */
export interface Committed<T> {
  readonly result: T;
  readonly appended: AppendedWrites | null;
}

/**
 * A command run for several requests in one transaction (`tx`): it settles each member, in order. A member's refusal
 * is its own (`ok: false`); what must undo the whole group (a lost race, a failed statement) is thrown.
 * `idBeforeOutcomes`: the id a keyed request's key gave what it made before outcomes were recorded
 * (idempotency/legacy-keyed-ids.ts), for the command to look for; null without a key.
 */
export type GroupWork<Input, Result> = (
  tx: Transaction<object>,
  members: readonly { readonly input: Input; readonly idBeforeOutcomes: string | null }[],
) => Promise<readonly Settled<Committed<Result>>[]>;

/** A request waiting in the queue, and how to answer it. */
interface Member<Input, Output> {
  readonly input: Input;
  readonly answered: (output: Output) => void;
  readonly failed: (error: unknown) => void;
}

/**
 * Group commit for a command many requests send at once (POST /runs): a request made while a group of its kind is on
 * its way waits for it and goes with the next group, so N requests share one transaction, one read of their streams,
 * one append, one pass of the inline projections and one commit, instead of a dozen statements each. A request made
 * alone is sent at once, as before.
 *
 * `together` runs a group in one transaction and settles each member: a member's own refusal fails that member only.
 * When the transaction itself fails (two members raced for one stream, an inline projection refused one, a deadlock,
 * the database went away), nothing of it was committed, and every member runs again `alone`, in a transaction of
 * its own with the usual retries: the group can make a request no worse off than it was without one. A group of one
 * runs `alone` directly. Should the commit's own answer be lost (the connection dropped as it committed), the group
 * may have committed after all: the command must be idempotent on its own (a run is named by its recording, a keyed
 * request's outcome is recorded with it), so each member's run alone finds what the group saved and answers it.
 *
 * Why here and not below: a statement costs ≈0.35 ms of CPU on these machines (docs/PERFORMANCE.md), more than
 * deciding a run, and only the command knows which of its statements can be shared.
 */
export class GroupCommit<Input, Output> {
  readonly #together: (inputs: readonly Input[]) => Promise<readonly Settled<Output>[]>;
  readonly #alone: (input: Input) => Promise<Output>;
  readonly #maxGroup: number;
  #queued: Member<Input, Output>[] = [];
  #sending = false;

  constructor(options: {
    together: (inputs: readonly Input[]) => Promise<readonly Settled<Output>[]>;
    alone: (input: Input) => Promise<Output>;
    /** The most members in one group: a bound on one transaction's size and on what one failure sends again. */
    maxGroup: number;
  }) {
    if (!(options.maxGroup >= 1)) throw new Error('GroupCommit: maxGroup must be at least 1');
    this.#together = options.together;
    this.#alone = options.alone;
    this.#maxGroup = options.maxGroup;
  }

  /** Runs `input`'s command, with whatever else is asked for meanwhile. */
  submit(input: Input): Promise<Output> {
    return new Promise((answered, failed) => {
      this.#queued.push({ input, answered, failed });
      if (!this.#sending) void this.#send();
    });
  }

  /**
   * Sends what is queued, one group at a time. One at a time because the API's CPU is what a group waits for (its
   * statements' round trips wait their turn in the event loop): with two groups in flight each took as long as one
   * did alone and held half as many runs (docs/PERFORMANCE.md).
   */
  async #send(): Promise<void> {
    this.#sending = true;
    try {
      while (this.#queued.length > 0) await this.#commit(this.#queued.splice(0, this.#maxGroup));
    } finally {
      this.#sending = false;
    }
  }

  async #commit(group: readonly Member<Input, Output>[]): Promise<void> {
    if (group.length > 1) {
      let settled: readonly Settled<Output>[] | null = null;
      try {
        settled = await this.#together(group.map((member) => member.input));
      } catch {
        // Nothing committed: each member runs again on its own below, and any error is its own.
      }
      if (settled) {
        for (const [i, member] of group.entries()) {
          const outcome = settled[i]!;
          if (outcome.ok) member.answered(outcome.value);
          else member.failed(outcome.error);
        }
        return;
      }
    }
    await Promise.all(
      group.map(async (member) => {
        try {
          member.answered(await this.#alone(member.input));
        } catch (error) {
          member.failed(error);
        }
      }),
    );
  }
}
