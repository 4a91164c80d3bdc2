import type { HttpMethod } from '../api.ts';
import type { DemoState } from './demo-data.ts';

/** The demo user's id: the sample data's owner, and the viewer whose reactions the feed marks as theirs. */
export const DEMO_USER_ID = 'demo-user';

export type DemoBody = Record<string, unknown> | undefined;

/** Answers one demo request from the state (which it may change; changes are saved after non-GET requests). */
export type DemoHandler = (
  state: DemoState,
  now: number,
  match: RegExpMatchArray,
  body: DemoBody,
  query: URLSearchParams,
) => unknown;

/** A demo answer by method and path; the shapes are those of the real API. */
export type DemoRoute = readonly [HttpMethod, RegExp, DemoHandler];
