import { BoundedMap } from '../bounded-map.ts';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { FreshRead, requestMark } from './fresh-read.ts';
import type { AuthTables, SessionRow } from './tables.ts';

/**
 * "Is this session still live?" is asked by every product request. Asking PostgreSQL each time costs a query per
 * request; remembering the answer naively would let a signed-out session or an erased account through on another API
 * instance until its memory expired. This answers from memory and stays exact:
 *
 * - every change that can end a session or change what the guard answers (delete, revoke-all, MFA step-up, erasure)
 *   moves one counter forward in its own transaction: the session epoch, kept by triggers (auth/migrations.ts);
 * - a session read from the database is remembered with the epoch of the same snapshot (one statement reads both);
 * - each request then needs only the epoch, read after the request arrived (FreshRead: one query per round trip
 *   shared by every concurrent request). Same epoch: nothing has ended any session since the remembered read, so the
 *   session is live now. Another epoch: read the session again.
 *
 * So a sign-out committed before a request reaches any instance is seen by that request, exactly as with a query per
 * request (tests/api/revocation-across-instances.test.ts holds two instances to it). Expiry needs no epoch: the
 * absolute end is checked against the clock, and a remembered idle deadline that has passed is re-read (a refresh
 * may have extended it).
 */
export class LiveSessions {
  readonly #db: Db;
  readonly #capacity: number;
  /** The epoch, read after the current request arrived. */
  readonly #epoch: () => Promise<number>;
  /** First in, first out: a session read again is remembered anew. */
  readonly #remembered: BoundedMap<string, { row: SessionRow; epoch: number }>;

  /**
   * `capacity`: how many sessions to remember (0: read the session on every call, as before the epoch existed).
   * `epoch`: the epoch read after the current request arrived, when the runtime shares that round trip with other
   * reads (realtime/request-freshness.ts); by default a FreshRead of its own on the pool.
   */
  constructor(db: Db, options: { capacity: number; epoch?: (() => Promise<number>) | undefined }) {
    this.#db = db;
    this.#capacity = options.capacity;
    this.#remembered = new BoundedMap(options.capacity);
    if (options.epoch) {
      this.#epoch = options.epoch;
      return;
    }
    const own = new FreshRead(() => readSessionEpoch(db));
    this.#epoch = () => own.since(requestMark());
  }

  /**
   * The session row of `sessionId` owned by `userId` whose account is not erased, as the database holds it now (at a
   * snapshot taken after this call began), or undefined. `stillUsable` says whether a remembered row may answer
   * without reading it again (the idle deadline can move forward only in the database).
   */
  async find(sessionId: string, userId: string, stillUsable: (row: SessionRow) => boolean) {
    const epoch = this.#capacity > 0 ? await this.#epoch() : null;
    const remembered = this.#remembered.get(sessionId);
    if (remembered && remembered.epoch === epoch && remembered.row.user_id === userId && stillUsable(remembered.row))
      return remembered.row;
    const found = await this.#db
      .withTables<AuthTables>()
      .selectFrom('auth_sessions')
      .innerJoin('auth_users', 'auth_users.id', 'auth_sessions.user_id')
      .selectAll('auth_sessions')
      // The epoch of this very snapshot: a revocation committed after it moves the epoch past it.
      .select(sql<number>`(SELECT epoch FROM auth_session_epoch)`.as('session_epoch'))
      .where('auth_sessions.id', '=', sessionId)
      .where('auth_sessions.user_id', '=', userId)
      .where('auth_users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!found) {
      this.#remembered.delete(sessionId);
      return undefined;
    }
    const { session_epoch, ...row } = found;
    this.#remember(sessionId, row, Number(session_epoch));
    return row;
  }

  #remember(sessionId: string, row: SessionRow, epoch: number): void {
    this.#remembered.set(sessionId, { row, epoch });
  }
}

/** The session epoch as the database holds it now, read on the pool. */
export async function readSessionEpoch(db: Db): Promise<number> {
  const row = await db
    .withTables<AuthTables>()
    .selectFrom('auth_session_epoch')
    .select('epoch')
    .executeTakeFirstOrThrow();
  return Number(row.epoch);
}
