/** The Strava integration's process name: what it does on its own (backfill, webhooks) is done by `system:strava`. */
export const STRAVA = 'strava';
