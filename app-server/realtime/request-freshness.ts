import type { Db } from '../db/database.ts';
import { FreshRead, requestMark } from '../auth/fresh-read.ts';
import { readSessionEpoch } from '../auth/live-sessions.ts';
import type { ChangeHub } from './change-hub.ts';

/** What a request must read fresh: the session epoch, and whether this instance has heard every announcement before. */
export interface FreshState {
  /** auth_session_epoch, read after the request arrived (auth/live-sessions.ts). */
  readonly epoch: number;
  /**
   * True when the read was a round trip on the LISTEN connection: every announcement committed before it began has
   * been handed to the change hub's watchers (the read cache's barrier, http/read-cache.ts). False when the LISTEN
   * connection was down and the epoch came from the pool.
   */
  readonly heard: boolean;
}

const EPOCH = 'SELECT epoch FROM auth_session_epoch';

/**
 * The two things nearly every request reads fresh, in one round trip per wave of requests, not two: the session check
 * reads the epoch, and a cached read needs a round trip on the LISTEN connection that began after the request arrived.
 * The epoch is read on the LISTEN connection, and that statement is the barrier; a request asks it once (at its
 * session check) and its cached reads find it answered (FreshRead `since` the request's mark). With the LISTEN
 * connection down the epoch comes from the pool and no barrier passes, as before. Under a write row these were 0.7
 * epoch reads and 0.6 barriers per run (docs/PERFORMANCE.md).
 */
export class RequestFreshness {
  readonly #read: FreshRead<FreshState>;

  constructor(db: Db, hub: ChangeHub) {
    this.#read = new FreshRead(async () => {
      if (hub.listening) {
        try {
          const rows = await hub.barrierRead<{ epoch: number | string }>(EPOCH);
          return { epoch: Number(rows[0]!.epoch), heard: true };
        } catch {
          // The LISTEN connection is down: the epoch from the pool, and no barrier.
        }
      }
      return { epoch: await readSessionEpoch(db), heard: false };
    });
  }

  /** Read after `mark` (auth/fresh-read.ts: freshnessMark, requestMark). */
  since(mark: number): Promise<FreshState> {
    return this.#read.since(mark);
  }

  /** Read after the current request arrived (or after this call, outside a request). */
  forRequest(): Promise<FreshState> {
    return this.#read.since(requestMark());
  }
}
