import { type Transaction, sql } from 'kysely';

/*
 * "Your list changed", pushed to a user's open clients (§7 realtime): the topics, the NOTIFY channel and its messages.
 * Sent by the engine's batches and inline appends (projections/engine/) and by commands (app-server/commands/),
 * heard by every API instance's change hub (app-server/realtime/change-hub.ts). Not the log engine's: it only hands
 * its processors an `announce` that sends through here, in the batch's transaction.
 */

/** The lists a client caches and refreshes when told they changed. */
export const changeTopics = [
  'goals',
  'runs',
  'streak',
  'badges',
  'xp',
  'feed',
  'reactions',
  'groups',
  'notifications',
  'stakes',
  'surge',
  'profile',
] as const;

export type ChangeTopic = (typeof changeTopics)[number];

/** The NOTIFY channel every API instance listens on to push "your list changed" to its SSE clients. */
export const CHANGES_CHANNEL = 'realtime_changes';

/** One user's changed topics, as sent on CHANGES_CHANNEL. */
export interface ChangeMessage {
  readonly userId: string;
  readonly topics: readonly ChangeTopic[];
}

// PostgreSQL caps a NOTIFY payload at 8000 bytes: chunk the messages well below that.
const MAX_PAYLOAD = 7000;

/** Collects a batch's announcements, de-duplicated per user, and sends them inside the batch's transaction. */
export class ChangeAnnouncements {
  readonly #byUser = new Map<string, Set<ChangeTopic>>();

  add(userId: string, topic: ChangeTopic): void {
    this.#byUser.set(userId, (this.#byUser.get(userId) ?? new Set<ChangeTopic>()).add(topic));
  }

  /** NOTIFY is transactional: listeners hear it only when (and if) the batch commits. */
  async notify(tx: Transaction<object>): Promise<void> {
    if (this.#byUser.size === 0) return;
    const messages: ChangeMessage[] = [...this.#byUser].map(([userId, topics]) => ({ userId, topics: [...topics] }));
    let chunk: ChangeMessage[] = [];
    let size = 2;
    for (const message of messages) {
      const length = JSON.stringify(message).length + 1;
      if (size + length > MAX_PAYLOAD && chunk.length > 0) {
        await send(tx, chunk);
        chunk = [];
        size = 2;
      }
      chunk.push(message);
      size += length;
    }
    if (chunk.length > 0) await send(tx, chunk);
  }
}

async function send(tx: Transaction<object>, messages: ChangeMessage[]): Promise<void> {
  await sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${JSON.stringify(messages)})`.execute(tx);
}
