/**
 * Group commit for one kind of statement that several callers ask for side by side (the eight lanes of a stake tick,
 * say): a call made while a statement of its kind is on its way waits for it and goes with the next one, so N
 * callers share a few statements instead of sending one each. Each caller gets its own answer (`run` answers the
 * inputs in order); a statement that fails fails every call it carried.
 * A round trip costs more than the rows it carries on these machines (≈100 µs of client CPU each: docs/PERFORMANCE.md).
 *
 * When nothing is on its way, the first call is sent once the event loop's current turn is over (setImmediate), not
 * at once, and every call made in that turn goes with it. Callers woken by one event (the runs of one group commit,
 * answered together and then each asking for its answer) all ask in one turn; sent at once, the first of them went
 * alone and the rest waited for it and went in a second statement, two statements and two round trips where one
 * does (docs/PERFORMANCE.md, "Answers in one statement per group").
 */
export class GroupedStatements<Input, Output> {
  readonly #run: (inputs: readonly Input[]) => Promise<readonly Output[]>;
  #queued: { input: Input; answered: (output: Output) => void; failed: (error: unknown) => void }[] = [];
  #sending = false;

  constructor(run: (inputs: readonly Input[]) => Promise<readonly Output[]>) {
    this.#run = run;
  }

  /** The answer to `input`, sent with whatever else is asked for meanwhile. */
  ask(input: Input): Promise<Output> {
    return new Promise((answered, failed) => {
      this.#queued.push({ input, answered, failed });
      if (!this.#sending) {
        this.#sending = true;
        setImmediate(() => void this.#send());
      }
      // Otherwise a statement is on its way or about to be sent: #send takes this call with the next group.
    });
  }

  async #send(): Promise<void> {
    while (this.#queued.length > 0) {
      const group = this.#queued;
      this.#queued = [];
      try {
        const outputs = await this.#run(group.map((call) => call.input));
        for (const [i, call] of group.entries()) call.answered(outputs[i]!);
      } catch (error) {
        for (const call of group) call.failed(error);
      }
    }
    this.#sending = false;
  }
}
