/**
 * Group commit for one kind of statement that several callers ask for side by side (the eight lanes of a stake tick,
 * say): a call made while a statement of its kind is on its way waits for it and goes with the next one, so N
 * callers share a few statements instead of sending one each, and a call made alone is sent at once. Each caller
 * gets its own answer (`run` answers the inputs in order); a statement that fails fails every call it carried.
 * A round trip costs more than the rows it carries on these machines (≈100 µs of client CPU each: docs/PERFORMANCE.md).
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
      if (!this.#sending) void this.#send();
    });
  }

  async #send(): Promise<void> {
    this.#sending = true;
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
