import { CHANGES_CHANNEL, type ChangeMessage } from '../../projections/change-announcements.ts';
import { type ChangeTopic, changeTopics } from '../../projections/engine/projector.ts';
import type { Database, Following } from '../db/database.ts';

type Listener = (topics: readonly ChangeTopic[]) => void;

/** Hears every message, whoever it is for (the read cache), and when messages may have been lost. */
export interface ChangeWatcher {
  messages(messages: readonly ChangeMessage[]): void;
  lost(): void;
}

/**
 * Fans out "your list changed" messages to the SSE connections of this API instance. Projections send them with
 * NOTIFY after their batch commits, so every instance hears every message whichever instance (or worker) ran the
 * projection; the hub keeps only the users connected here.
 */
export class ChangeHub {
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #watchers = new Set<ChangeWatcher>();
  #following: Following | null = null;

  /**
   * Starts listening on the database's change channel. When a lost LISTEN connection is back, the messages sent
   * meanwhile are gone: every connected client is told that all its lists changed, so it refetches them.
   */
  async start(database: Database): Promise<void> {
    if (this.#following) return;
    this.#following = await database.follow(CHANGES_CHANNEL, (payload) => this.deliver(parseChangeMessages(payload)), {
      onReconnect: () => {
        for (const watcher of this.#watchers) watcher.lost();
        this.deliverToEveryone(changeTopics);
      },
    });
  }

  async stop(): Promise<void> {
    const following = this.#following;
    this.#following = null;
    for (const watcher of this.#watchers) watcher.lost();
    await following?.stop();
    this.#listeners.clear();
  }

  /** True while listening (started and not stopped). */
  get listening(): boolean {
    return this.#following !== null;
  }

  /**
   * Resolves once every message committed before the call has been delivered (a round trip on the LISTEN connection,
   * database.ts `follow`); rejects when not listening or while the connection is down.
   */
  barrier(): Promise<void> {
    return this.#following ? this.#following.barrier() : Promise.reject(new Error('ChangeHub is not listening'));
  }

  /** barrier(), answering `text` (a statement without parameters) from the same round trip on the LISTEN connection. */
  barrierRead<Row>(text: string): Promise<Row[]> {
    return this.#following
      ? this.#following.barrierRead<Row>(text)
      : Promise.reject(new Error('ChangeHub is not listening'));
  }

  /** Hands every message to `watcher` too; returns the function that stops it. */
  watch(watcher: ChangeWatcher): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
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
    for (const watcher of this.#watchers) watcher.messages(messages);
    for (const message of messages) {
      for (const listener of this.#listeners.get(message.userId) ?? []) listener(message.topics);
    }
  }
}

/** Parses a CHANGES_CHANNEL payload; malformed payloads yield nothing rather than crash a listener. */
function parseChangeMessages(payload: string): ChangeMessage[] {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (m): m is ChangeMessage =>
        typeof m === 'object' && m !== null && typeof m.userId === 'string' && Array.isArray(m.topics),
    );
  } catch {
    return [];
  }
}
