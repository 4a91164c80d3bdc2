import { registerPlugin } from '@capacitor/core';
import type { HealthRouteFix, HealthRouteResult, HealthRoutes } from '../../web/src/lib/platform/health.ts';

/**
 * The shell's own plugin HealthRoutes (native/plugins/health-routes, registered in both native projects by
 * `npm run native:sync`): a workout's route from Health Connect (ExerciseRoute, READ_EXERCISE_ROUTES or Health
 * Connect's dialog per workout) or Apple Health (HKWorkoutRouteQuery, read access to workout routes).
 */
export interface HealthRoutesPlugin {
  /** Asks to read routes; `granted` is whether routes may be read (iOS: the runner was asked; it never says more). */
  requestRouteAuthorization(): Promise<{ granted: boolean }>;
  /** The route of the workout whose id in the store is `workoutId` (Health Connect's record id, HealthKit's UUID). */
  getRoute(options: { workoutId: string }): Promise<{ status: 'route' | 'none' | 'denied'; fixes: HealthRouteFix[] }>;
}

export const HealthRoutesNative = registerPlugin<HealthRoutesPlugin>('HealthRoutes');

/** The plugin calls this module makes (a test passes a fake). */
export type HealthRoutesPluginLike = Pick<HealthRoutesPlugin, 'requestRouteAuthorization' | 'getRoute'>;

/** Whether a fix from the plugin is one: finite coordinates in range and a readable time. */
function isFix(fix: HealthRouteFix): boolean {
  return (
    Number.isFinite(fix.lat) &&
    Number.isFinite(fix.lng) &&
    Math.abs(fix.lat) <= 90 &&
    Math.abs(fix.lng) <= 180 &&
    typeof fix.at === 'string' &&
    Number.isFinite(Date.parse(fix.at))
  );
}

/**
 * The web app's HealthRoutes on the phone. A failure to ask or to read is no route (the workout is imported without
 * it, as before routes were read); the fixes come back in time order, without the ones the store got wrong.
 */
export function capacitorHealthRoutes(plugin: HealthRoutesPluginLike = HealthRoutesNative): HealthRoutes {
  return {
    async requestAccess() {
      try {
        return (await plugin.requestRouteAuthorization()).granted === true;
      } catch {
        return false;
      }
    },
    async routeOf(workoutId): Promise<HealthRouteResult> {
      try {
        const answer = await plugin.getRoute({ workoutId });
        if (answer.status === 'denied') return { kind: 'denied' };
        const fixes = (answer.fixes ?? []).filter(isFix);
        if (answer.status !== 'route' || fixes.length === 0) return { kind: 'none' };
        return { kind: 'route', fixes: fixes.sort((a, b) => Date.parse(a.at) - Date.parse(b.at)) };
      } catch {
        return { kind: 'none' };
      }
    },
  };
}
