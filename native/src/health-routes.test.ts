import { describe, expect, it } from 'vitest';
import type { HealthRouteFix } from '../../web/src/lib/platform/health.ts';
import { capacitorHealthRoutes, type HealthRoutesPluginLike } from './health-routes.ts';

/** A fake HealthRoutes plugin answering `getRoute` with `answer` and recording what it was asked. */
function fakePlugin(
  answer: Awaited<ReturnType<HealthRoutesPluginLike['getRoute']>> | Error,
  granted: boolean | Error = true,
) {
  const asked: string[] = [];
  const plugin: HealthRoutesPluginLike = {
    requestRouteAuthorization: async () => {
      if (granted instanceof Error) throw granted;
      return { granted };
    },
    getRoute: async ({ workoutId }) => {
      asked.push(workoutId);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { plugin, asked };
}

const fix = (at: string, lat = 51.5, lng = -0.12): HealthRouteFix => ({ lat, lng, at, accuracy: 6, altitude: 12 });

describe('HealthRoutes behind the web app (the shell plugin mocked)', () => {
  it('requestAccess is the plugin’s answer; a failure is no access', async () => {
    expect(await capacitorHealthRoutes(fakePlugin({ status: 'none', fixes: [] }, true).plugin).requestAccess()).toBe(
      true,
    );
    expect(await capacitorHealthRoutes(fakePlugin({ status: 'none', fixes: [] }, false).plugin).requestAccess()).toBe(
      false,
    );
    const failing = fakePlugin({ status: 'none', fixes: [] }, new Error('Health Connect is not installed'));
    expect(await capacitorHealthRoutes(failing.plugin).requestAccess()).toBe(false);
  });

  it('reads a workout’s route by its id: fixes in time order, impossible ones left out', async () => {
    const { plugin, asked } = fakePlugin({
      status: 'route',
      fixes: [
        fix('2026-11-24T07:00:10.000Z'),
        fix('2026-11-24T07:00:00.000Z'),
        fix('not a time'),
        fix('2026-11-24T07:00:05.000Z', 91),
        fix('2026-11-24T07:00:20.000Z', Number.NaN),
        fix('2026-11-24T07:00:15.000Z', 51.5, 181),
      ],
    });
    const route = await capacitorHealthRoutes(plugin).routeOf('hc-1');
    expect(asked).toEqual(['hc-1']);
    expect(route).toEqual({
      kind: 'route',
      fixes: [fix('2026-11-24T07:00:00.000Z'), fix('2026-11-24T07:00:10.000Z')],
    });
  });

  it('no route, a declined route, an empty one and a failure are told apart where it matters', async () => {
    expect(await capacitorHealthRoutes(fakePlugin({ status: 'none', fixes: [] }).plugin).routeOf('a')).toEqual({
      kind: 'none',
    });
    expect(await capacitorHealthRoutes(fakePlugin({ status: 'denied', fixes: [] }).plugin).routeOf('a')).toEqual({
      kind: 'denied',
    });
    expect(await capacitorHealthRoutes(fakePlugin({ status: 'route', fixes: [] }).plugin).routeOf('a')).toEqual({
      kind: 'none',
    });
    expect(await capacitorHealthRoutes(fakePlugin(new Error('no such record')).plugin).routeOf('a')).toEqual({
      kind: 'none',
    });
  });
});
