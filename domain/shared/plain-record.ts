/**
 * Whether `value` is an object as JSON.parse makes it (its prototype Object.prototype, or none): not an array, a
 * class instance, a Date or a Map, whose fields or toJSON a serializer or a schema would read otherwise. The fast
 * paths that stand in for JSON or zod on a run's fixes (stable-json.ts, domain/run/event-fits.ts,
 * app-server/privacy/personal-value.ts) take only such objects and leave anything else to the general way.
 */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
