import { z } from 'zod';
import { pauseWeekBodySchema } from '../../../domain/validation/goal-pause.ts';
import { appealBodySchema } from '../../../domain/validation/stake-appeal.ts';
import { createGoalBodySchema, patchGoalBodySchema } from '../../../domain/validation/goal.ts';
import { createGroupBodySchema, joinGroupBodySchema } from '../../../domain/validation/group.ts';
import {
  notificationPreferencesSchema,
  pushRegistrationSchema,
  testNotificationSchema,
} from '../../../domain/validation/notifications.ts';
import {
  gpsFinishBodySchema,
  gpsPositionsBodySchema,
  gpsStartBodySchema,
  goalListQuerySchema,
  runListQuerySchema,
} from '../../../domain/validation/lists.ts';
import { patchRunBodySchema, runBodySchema } from '../../../domain/validation/run.ts';
import { pathIdSchema } from '../../../domain/validation/text.ts';
import { distanceUnitPreferenceSchema } from '../../../domain/validation/units.ts';
import { deleteAccountBodySchema, profilePatchSchema } from '../routes/me/profile.ts';
import { feedQuerySchema, reactionBody, reactionParams } from '../routes/feed.ts';
import { groupsQuerySchema, recapQuerySchema } from '../routes/groups.ts';
import { afterQuery, historyQuery } from '../routes/notifications.ts';
import { listQuery, openBody } from '../routes/stakes.ts';
import { localAuthenticateSetupSchema, localConfirmSetupSchema } from '../routes/local-card.ts';
import { completeConnectionBodySchema, startConnectionQuerySchema } from '../routes/integrations.ts';
import { stravaWebhookEventSchema } from '../../integrations/strava-webhook.ts';
import { exportQuerySchema } from '../routes/run-files.ts';
import type { RouteDoc } from './route-docs.ts';
import { LIMIT } from '../limits/route-limits.ts';

const id = z.object({ id: pathIdSchema });
/** Builds a RouteDoc with the defaults every product route shares (signed in; 404 for someone else's object). */
function route(
  method: RouteDoc['method'],
  path: string,
  tag: string,
  summary: string,
  extra: Partial<RouteDoc> & Pick<RouteDoc, 'limit'>,
): RouteDoc {
  return {
    method,
    path,
    tag,
    summary,
    auth: true,
    ...(path.includes(':') ? { params: id, errors: [404] } : {}),
    ...extra,
  };
}

/** How a run made from a GPS recording answers a repeat (app-server/commands/runs/recording-id.ts). */
const SAME_RECORDING =
  'The same recording is one run. A track equal to one of your runs (the same fixes in the same order: times to the ' +
  'millisecond, coordinates to 1e-6°; accuracy, notes and the other fields left out) answers **201 with the run ' +
  'already saved** (same id), as a retry with the same `Idempotency-Key` does, with or without a key, also when ' +
  'copies arrive at once. A track with any fix moved or retimed is another recording, a new run. Recordings are per ' +
  "user: another runner's identical track is their own run. A recording whose run you deleted answers 409 " +
  '(`run_deleted`) and is not saved again.';

/**
 * The goals, runs, groups, feed, preferences, notifications and money routes, described with the same zod schemas
 * (from `domain/validation`) their handlers parse with.
 */
export const PRODUCT_ROUTE_DOCS: readonly RouteDoc[] = [
  route('get', '/openapi.json', 'operations', 'This document', { limit: LIMIT.public, auth: false }),
  route('get', '/health', 'operations', 'Database, LISTEN and read-model health; 503 names each problem', {
    limit: LIMIT.public,
    auth: false,
    errors: [503],
  }),
  route('get', '/auth/me', 'account', 'Your profile with level, tier, XP and streak', { limit: LIMIT.read }),
  route('patch', '/auth/me', 'account', 'Change your time zone or display name', {
    limit: LIMIT.write,
    body: profilePatchSchema,
  }),
  route('delete', '/auth/me', 'account', 'Delete your account (needs the nonce from /auth/v1/reauthenticate)', {
    limit: LIMIT.write,
    body: deleteAccountBodySchema,
  }),
  route('post', '/goals', 'goals', 'Create a weekly goal (this week or next), optionally staked', {
    limit: LIMIT.create,
    body: createGoalBodySchema,
    errors: [409],
    idempotent: true,
  }),
  route('get', '/goals/current', 'goals', "This week's goal with progress and percentage", { limit: LIMIT.read }),
  route('get', '/goals/upcoming', 'goals', "Next week's goal, if planned", { limit: LIMIT.read }),
  route('get', '/goals', 'goals', 'Goal history, newest first', { limit: LIMIT.read, query: goalListQuerySchema }),
  route('post', '/goals/pauses', 'goals', 'Pause a week at least 7 days ahead: no goal, no stake, the streak kept', {
    limit: LIMIT.create,
    body: pauseWeekBodySchema,
    errors: [409],
  }),
  route('get', '/goals/pauses', 'goals', 'Your paused weeks, and the earliest week you can pause now', {
    limit: LIMIT.read,
  }),
  route('delete', '/goals/pauses/:week_start', 'goals', 'Cancel a pause before its week begins', {
    limit: LIMIT.write,
    errors: [404, 409],
  }),
  route('get', '/goals/:id', 'goals', 'One of your goals', { limit: LIMIT.read }),
  route('get', '/goals/:id/stats', 'goals', "A goal's week: totals, pace, speed, milestone and runs", {
    limit: LIMIT.read,
  }),
  route('patch', '/goals/:id', 'goals', 'Cancel an upcoming or active goal', {
    limit: LIMIT.write,
    body: patchGoalBodySchema,
    params: id,
    errors: [404, 409],
  }),
  route('delete', '/goals/:id', 'goals', 'Delete an upcoming goal', { limit: LIMIT.write, errors: [404, 409] }),
  route('post', '/runs', 'runs', 'Save a run (GPS positions; distance computed on the server)', {
    limit: LIMIT.write,
    body: runBodySchema,
    errors: [409],
    idempotent: true,
    description: SAME_RECORDING,
  }),
  route('post', '/runs/gps/start', 'runs', 'Start a server-side GPS tracking session', {
    limit: LIMIT.write,
    body: gpsStartBodySchema,
    errors: [409],
    idempotent: true,
  }),
  route('post', '/runs/gps/positions', 'runs', 'Upload the positions taken since the last upload, while tracking', {
    limit: LIMIT.tracking,
    body: gpsPositionsBodySchema,
    errors: [409],
  }),
  route('post', '/runs/gps/finish', 'runs', 'Finish the tracking session with its positions', {
    limit: LIMIT.write,
    body: gpsFinishBodySchema,
    errors: [409],
    idempotent: true,
    description: `${SAME_RECORDING} The session ends either way; a finish retried after a lost answer returns its run.`,
  }),
  route(
    'post',
    '/runs/import',
    'runs',
    'Import a GPX 1.1, TCX or FIT file as a run (multipart field `file`, ≤ 10 MB)',
    {
      limit: LIMIT.create,
      errors: [409, 413, 422],
      description:
        'A watch file is a track uploaded after the fact: judged by the run policy as `POST /runs` is ' +
        '(docs/run-policy.md), its format, creator and device kept (`recorded_with`). ' +
        `${SAME_RECORDING} A file that is not a run file, damaged (a FIT whose CRC or size does not match), hostile ` +
        '(a DOCTYPE or entity declaration, deep nesting, more than 100,000 points) or over 10 MB answers 4xx with a ' +
        'sentence in `error`, and nothing is saved.',
    },
  ),
  route('get', '/runs/:id/export', 'runs', 'One of your runs as a GPX 1.1 or TCX file (404 for any other run)', {
    limit: LIMIT.read,
    params: id,
    query: exportQuerySchema,
    errors: [404, 422],
  }),
  route('get', '/me/export', 'account', 'Download my data: a zip of every run as GPX and the account as JSON', {
    limit: LIMIT.create,
    description:
      'runs/*.gpx (every run with a track), runs.json, account.json, goals.json, stakes.json (cents), groups.json ' +
      'and preferences.json. Counted as a creation: it reads everything the account holds.',
  }),
  route('get', '/runs', 'runs', 'Your runs, newest first, in pages', { limit: LIMIT.read, query: runListQuerySchema }),
  route('get', '/runs/:id', 'runs', 'One of your runs with its GPS track (thinned to 1,500 fixes) for the map', {
    limit: LIMIT.read,
  }),
  route('patch', '/runs/:id', 'runs', "Edit a run's notes", {
    limit: LIMIT.write,
    body: patchRunBodySchema,
    params: id,
    errors: [404],
  }),
  route('delete', '/runs/:id', 'runs', 'Delete a run', { limit: LIMIT.write }),
  route('post', '/groups', 'groups', 'Create a group (you become its owner)', {
    limit: LIMIT.create,
    body: createGroupBodySchema,
    idempotent: true,
  }),
  route('post', '/groups/join', 'groups', 'Join a group by invite code', {
    limit: LIMIT.create,
    body: joinGroupBodySchema,
    errors: [404, 409],
    idempotent: true,
  }),
  route('get', '/groups', 'groups', 'Your groups, newest membership first, in pages (members: the first 50)', {
    limit: LIMIT.read,
    query: groupsQuerySchema,
  }),
  route('get', '/groups/:id', 'groups', 'A group with its members (invite code for the owner only)', {
    limit: LIMIT.read,
  }),
  route('post', '/groups/:id/leave', 'groups', 'Leave a group (not the owner)', {
    limit: LIMIT.write,
    params: id,
    errors: [403, 404],
  }),
  route('post', '/groups/:id/invite-code', 'groups', 'Rotate the invite code (owner only)', {
    limit: LIMIT.create,
    params: id,
    errors: [403, 404],
  }),
  route('get', '/groups/:id/leaderboard', 'groups', 'Members by level, then XP', { limit: LIMIT.read }),
  route('get', '/groups/:id/challenges', 'groups', 'Weekly distance, streaks and fastest paces', { limit: LIMIT.read }),
  route('get', '/groups/:id/recap', 'groups', 'A weekly summary of the group', {
    limit: LIMIT.read,
    params: id,
    query: recapQuerySchema,
    errors: [404],
  }),
  route('get', '/feed', 'feed', 'Activity feed of a group, or your own', { limit: LIMIT.read, query: feedQuerySchema }),
  route('post', '/feed/:id/reactions', 'feed', 'React to a feed event', {
    limit: LIMIT.write,
    body: reactionBody,
    params: id,
    errors: [404, 409],
    idempotent: true,
  }),
  route('delete', '/feed/:id/reactions/:emoji', 'feed', 'Remove your own reaction', {
    limit: LIMIT.write,
    params: z.object({ id: pathIdSchema, ...reactionParams.shape }),
    errors: [404],
  }),
  route('get', '/me/preferences', 'preferences', 'Distance unit and charity preferences', { limit: LIMIT.read }),
  route('put', '/me/preferences', 'preferences', 'Update preferences', {
    limit: LIMIT.write,
    body: distanceUnitPreferenceSchema.partial(),
  }),
  route('get', '/me/notification-preferences', 'preferences', 'Reminder switches and times', { limit: LIMIT.read }),
  route('put', '/me/notification-preferences', 'preferences', 'Update reminder switches and times', {
    limit: LIMIT.write,
    body: notificationPreferencesSchema.partial(),
  }),
  route(
    'get',
    '/notifications/web-push-key',
    'notifications',
    'The VAPID public key for Web Push (null: in-app only)',
    { limit: LIMIT.read },
  ),
  route('post', '/notifications/register', 'notifications', 'Register a push token (409: another account holds it)', {
    limit: LIMIT.notify,
    body: pushRegistrationSchema,
    errors: [409],
  }),
  route('delete', '/notifications/unregister', 'notifications', 'Remove your push tokens', { limit: LIMIT.write }),
  route('get', '/notifications/scheduled', 'notifications', 'Reminders planned for you', { limit: LIMIT.read }),
  route('get', '/notifications/history', 'notifications', 'Notifications delivered to you', {
    limit: LIMIT.read,
    query: historyQuery,
  }),
  route('get', '/notifications', 'notifications', 'Notifications after a time (polled every 30 s)', {
    limit: LIMIT.read,
    query: afterQuery,
  }),
  route('post', '/notifications/test', 'notifications', 'Send yourself a test notification', {
    limit: LIMIT.notify,
    body: testNotificationSchema,
    idempotent: true,
  }),
  route('get', '/charities', 'money', 'Active charities by name', { limit: LIMIT.public, auth: false }),
  route('get', '/stakes', 'money', 'Your stakes (the Stakes tab, the donation impact card)', {
    limit: LIMIT.read,
    query: listQuery,
  }),
  route('get', '/stakes/:id', 'money', 'One of your stakes', { limit: LIMIT.read }),
  route('get', '/stakes/:id/receipt', 'money', 'The receipt of one of your collected stakes', {
    limit: LIMIT.read,
    params: id,
    errors: [404],
  }),
  route('post', '/stakes/:id/appeal', 'money', 'Appeal your missed staked week, from its last day until settlement', {
    limit: LIMIT.create,
    params: id,
    body: appealBodySchema,
    errors: [404, 409],
  }),
  route('post', '/stakes/:id/vouch', 'money', 'Vouch that a member of your group ran the week they appealed', {
    limit: LIMIT.write,
    params: id,
    errors: [404, 409],
  }),
  route('post', '/stakes', 'money', 'Open the stake of your staked goal (idempotent)', {
    limit: LIMIT.create,
    body: openBody,
    errors: [404],
  }),
  route('get', '/api/payment/config', 'money', 'The card form’s setup: Stripe publishable key and which gateway', {
    limit: LIMIT.public,
    auth: false,
  }),
  route('post', '/api/payment/setup-intent', 'money', 'Start saving a card for off-session use', {
    limit: LIMIT.create,
    errors: [503],
    idempotent: true,
  }),
  route('get', '/api/payment/payment-methods', 'money', 'Your saved cards', { limit: LIMIT.read, errors: [503] }),
  route('delete', '/api/payment/payment-methods/:id', 'money', 'Remove a saved card (not one backing an open stake)', {
    limit: LIMIT.write,
    errors: [404, 409, 503],
  }),
  route('post', '/api/payment/webhook', 'money', 'Stripe webhook (signature checked on the raw body)', {
    limit: LIMIT.webhook,
    auth: false,
  }),
  // The local gateway's stand-in for Stripe.js: registered only when the local gateway serves, never in production.
  route(
    'post',
    '/api/payment/local/setup-intent/confirm',
    'money',
    'Local gateway only: save a test card (402 when refused)',
    { limit: LIMIT.write, body: localConfirmSetupSchema, errors: [404] },
  ),
  route(
    'post',
    '/api/payment/local/setup-intent/authenticate',
    'money',
    'Local gateway only: answer the card’s authentication',
    { limit: LIMIT.write, body: localAuthenticateSetupSchema, errors: [404, 409] },
  ),
  route('get', '/api/integrations', 'integrations', 'Your connected services (no tokens)', { limit: LIMIT.read }),
  route('get', '/api/integrations/auth/:provider/start', 'integrations', 'Start connecting a service: the OAuth URL', {
    limit: LIMIT.write,
    params: z.object({ provider: z.string() }),
    query: startConnectionQuerySchema,
    errors: [404, 501, 503],
  }),
  route(
    'get',
    '/api/integrations/strava/callback',
    'integrations',
    'OAuth return: hands code and state to /connected-apps (fragment), which completes; errors as ?error=',
    {
      limit: LIMIT.public,
      auth: false,
      query: z.object({
        code: z.string().optional(),
        state: z.string().optional(),
        scope: z.string().optional(),
        error: z.string().optional(),
      }),
    },
  ),
  route(
    'post',
    '/api/integrations/auth/:provider/complete',
    'integrations',
    'Complete connecting with the code and state the callback handed over (only the session that started; once)',
    {
      limit: LIMIT.create,
      params: z.object({ provider: z.string() }),
      body: completeConnectionBodySchema,
      errors: [404, 409, 422, 501, 503],
    },
  ),
  route(
    'delete',
    '/api/integrations/:provider/disconnect',
    'integrations',
    'Disconnect a service (imported runs stay)',
    { limit: LIMIT.write, params: z.object({ provider: z.string() }), errors: [404, 501] },
  ),
  route('post', '/api/integrations/:provider/sync', 'integrations', 'Import new activities now', {
    limit: LIMIT.create,
    params: z.object({ provider: z.string() }),
    errors: [404, 429, 501, 502, 503],
  }),
  route('get', '/api/integrations/strava/webhook', 'integrations', 'Strava subscription handshake', {
    limit: LIMIT.webhook,
    auth: false,
    query: z.object({ 'hub.mode': z.string(), 'hub.challenge': z.string(), 'hub.verify_token': z.string() }),
    errors: [403],
  }),
  route('post', '/api/integrations/strava/webhook', 'integrations', 'Strava activity and deauthorization events', {
    limit: LIMIT.webhook,
    auth: false,
    body: stravaWebhookEventSchema,
    errors: [413, 429],
  }),
];
