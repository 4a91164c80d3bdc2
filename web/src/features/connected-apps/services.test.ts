import { describe, expect, it } from 'vitest';
import type { HealthStore } from '../../lib/platform/health.ts';
import { servicesOn } from './services.ts';

const store = (source: HealthStore['source']): HealthStore => ({
  source,
  importWorkouts: async () => ({ source, imported: 0, ok: true, message: 'No new runs.' }),
});
const card = (cards: ReturnType<typeof servicesOn>, name: string) => cards.find((c) => c.name === name)!;

// Connected apps (issue 24 item 4): the phone's own health store is imported from its card in the app; the web and
// the other platform say where it is available.
describe('the connected apps cards', () => {
  it('on the web: both health stores say which app does it, nothing imports', () => {
    const cards = servicesOn('web', undefined);
    expect(card(cards, 'Health Connect')).toMatchObject({
      available: false,
      unavailable: 'Available in the StrideStake app for Android',
    });
    expect(card(cards, 'Apple Health')).toMatchObject({
      available: false,
      unavailable: 'Available in the StrideStake app for iPhone',
    });
    expect(cards.some((c) => c.health)).toBe(false);
    expect(cards.map((c) => c.name)).not.toContain('Google Fit');
  });

  it('on Android with Health Connect: its card imports from the phone; Apple Health points to the iPhone app', () => {
    const health = store('health_connect');
    const cards = servicesOn('android', health);
    expect(card(cards, 'Health Connect')).toMatchObject({ available: true, health });
    expect(card(cards, 'Apple Health')).toMatchObject({
      available: false,
      unavailable: 'Available in the StrideStake app for iPhone',
    });
  });

  it('on iPhone with Apple Health: its card imports; a phone without a store says so', () => {
    const health = store('apple_health');
    expect(card(servicesOn('ios', health), 'Apple Health')).toMatchObject({ available: true, health });
    expect(card(servicesOn('ios', undefined), 'Apple Health')).toMatchObject({
      available: false,
      unavailable: 'Not available on this phone',
    });
  });
});
