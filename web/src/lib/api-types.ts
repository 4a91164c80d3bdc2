/**
 * The shapes the product API answers, derived from the server's own handlers (Hono's typed client over `AppType`,
 * type-only: no server code enters the bundle). A handler that changes what it answers changes these types, and the
 * web app — and the demo backend, which answers the same shapes — stops compiling where it no longer fits.
 */
import type { hc, InferResponseType } from 'hono/client';
import type { AppType } from '../../../app-server/http/app-type.ts';

type Api = ReturnType<typeof hc<AppType>>;
/** A route's successful (200) JSON answer. */
type Ok<Endpoint> = InferResponseType<Endpoint, 200>;
type Element<List> = List extends readonly (infer Item)[] ? Item : never;

export type Goal = NonNullable<Ok<Api['goals']['current']['$get']>['data']>;
/** A goal in the history list, where progress is `{ current, percentage }` (§3). */
export type GoalHistoryItem = Element<Ok<Api['goals']['$get']>['goals']>;
export type GoalStatus = Goal['status'];
export type GoalStats = Ok<Api['goals'][':id']['stats']['$get']>;
/** The runner's paused weeks and the earliest week they may pause now (issue 25). */
export type GoalPausesAnswer = Ok<Api['goals']['pauses']['$get']>;
export type WeekPause = Element<GoalPausesAnswer['data']>;
/** A pause's reason (the API's is null only for an erased account's, which nobody reads). */
export type WeekPauseReason = NonNullable<WeekPause['reason']>;

export type Profile = Ok<Api['auth']['me']['$get']>['user'];
export type XpInfo = Ok<Api['me']['xp']['$get']>['data'];
export type Streak = Ok<Api['me']['streak']['$get']>['data'];

export type Run = Element<Ok<Api['runs']['$get']>['data']>;
/** One run with its track for the map (GET /runs/{id}); `gps_data` is null for a run without one. */
export type RunWithTrack = Ok<Api['runs'][':id']['$get']>['data'];
/** How the run policy judged a run, and what it counts toward a stake (GET /runs). */
export type RunVerification = Run['verification'];

export type FeedEvent = Element<Ok<Api['feed']['$get']>['data']>;
export type FeedReactions = FeedEvent['reactions'];
export type FeedEventType = FeedEvent['event_type'];
export type ReactionEmoji = 'thumbs_up' | 'clap' | 'fire';

export type Badge = Element<Ok<Api['me']['badges']['$get']>['data']>;
export type Stake = Element<Ok<Api['stakes']['$get']>['stakes']>;
export type Charity = Element<Ok<Api['charities']['$get']>['charities']>;

export type Group = Ok<Api['groups'][':id']['$get']>['data'];
export type GroupMember = Element<Group['members']>;
export type LeaderboardLine = Element<Ok<Api['groups'][':id']['leaderboard']['$get']>['data']>;

export type Surge = NonNullable<Ok<Api['surge']['active']['$get']>['data']>;
export type Preferences = Ok<Api['me']['preferences']['$get']>['data'];

/** A GPS fix as the API takes it (§3 gps_data.positions). */
export interface GpsPositionJson {
  readonly latitude: number;
  readonly longitude: number;
  readonly timestamp: number;
  readonly accuracy?: number;
}

/** The envelope most product routes answer with. */
export interface DataEnvelope<T> {
  readonly success: true;
  readonly data: T;
}
