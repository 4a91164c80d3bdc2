import {
  CHANGES_CHANNEL,
  type ChangeMessage,
  parseChangeMessages,
} from '../../projections/runner/change-announcements.ts';
import { type ChangeTopic, changeTopics } from '../../projections/runner/projector.ts';
import type { Database } from '../db/database.ts';

type Listener = (topics: readonly ChangeTopic[]) => void;

/**
 * Fans out "your list changed" messages to the SSE connections of this API instance. Projections send them with
 * NOTIFY after their batch commits, so every instance hears every message whichever instance (or worker) ran the
 * projection; the hub keeps only the users connected here.
 */
export class ChangeHub {
  readonly #listeners = new Map<string, Set<Listener>>();
  #stopListening: (() => Promise<void>) | null = null;

  /**
   * Starts listening on the database's change channel. When a lost LISTEN connection is back, the messages sent
   * meanwhile are gone: every connected client is told that all its lists changed, so it refetches them.
   */
  async start(database: Database): Promise<void> {
    if (this.#stopListening) return;
    this.#stopListening = await database.listen(
      CHANGES_CHANNEL,
      (payload) => this.deliver(parseChangeMessages(payload)),
      {
        onReconnect: () => this.deliverToEveryone(changeTopics),
      },
    );
  }

  async stop(): Promise<void> {
    await this.#stopListening?.();
    this.#stopListening = null;
    this.#listeners.clear();
  }

  /** Registers a connection of `userId`; returns the function that removes it. */
  subscribe(userId: string, listener: Listener): () => void {
    let set = this.#listeners.get(userId);
    if (!set) {
      set = new Set();
      this.#listeners.set(userId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(userId);
    };
  }

  /** Number of open connections, for health and tests. */
  get connections(): number {
    let n = 0;
    for (const set of this.#listeners.values()) n += set.size;
    return n;
  }

  /** Tells every connection that these lists changed (after missed messages, nobody knows which). */
  deliverToEveryone(topics: readonly ChangeTopic[]): void {
    for (const set of this.#listeners.values()) for (const listener of set) listener(topics);
  }

  /** Hands each message to the connections of its user. */
  deliver(messages: readonly ChangeMessage[]): void {
    for (const message of messages) {
      for (const listener of this.#listeners.get(message.userId) ?? []) listener(message.topics);
    }
  }
}
