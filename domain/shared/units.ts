/** The distance units of user preferences (§3); km is the default (§9). */
export type DistanceUnit = 'km' | 'mi';

/** Miles per kilometre (§9). */
export const MI_PER_KM = 0.621371;

/** Kilometres per mile (§9). */
export const KM_PER_MI = 1.60934;

/** Rounds to 2 decimals, the precision distances are stored and shown with. */
export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** Kilometres to miles (unrounded). */
export function kmToMi(km: number): number {
  return km * MI_PER_KM;
}

/** Miles to kilometres (unrounded). */
export function miToKm(mi: number): number {
  return mi * KM_PER_MI;
}

/** A distance entered in `unit`, in km to 2 decimals as stored (§5: a distance target is converted to km). */
export function toStoredKm(value: number, unit: DistanceUnit): number {
  return round2(unit === 'mi' ? miToKm(value) : value);
}

/** A stored km distance in the user's unit, 2 decimals, with its unit label: '5.00 km', '3.11 mi'. */
export function formatDistance(km: number, unit: DistanceUnit): string {
  const value = unit === 'mi' ? kmToMi(km) : km;
  return `${round2(value).toFixed(2)} ${unit}`;
}

/** A speed in km/h in the user's unit, 1 decimal, with its label: '10.9 km/h', '6.8 mph'; '—' when unknown (§2). */
export function formatSpeed(kmh: number | null, unit: DistanceUnit): string {
  if (kmh === null || !Number.isFinite(kmh) || kmh < 0) return '—';
  const value = unit === 'mi' ? kmToMi(kmh) : kmh;
  return `${(Math.round(value * 10) / 10).toFixed(1)} ${unit === 'mi' ? 'mph' : 'km/h'}`;
}
