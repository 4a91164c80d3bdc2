import type { EventMetadata, Upcaster } from '../../../domain/shared/event-store.ts';

/** Applies upcasters to a stored event's data; returns the data and metadata at the newest known schema version. */
export type UpcastFn = (
  type: string,
  data: unknown,
  metadata: EventMetadata,
) => { data: unknown; metadata: EventMetadata };

/**
 * Chains upcasters by (eventType, fromVersion): v1 → v2 → v3 … until no upcaster reads the current version.
 * Returns null when there are none, so read paths can skip the per-event call entirely.
 */
export function createUpcast(upcasters: readonly Upcaster[] = []): UpcastFn | null {
  if (upcasters.length === 0) return null;
  const byKey = new Map<string, Upcaster>();
  for (const upcaster of upcasters) {
    const key = `${upcaster.eventType}\u0000${upcaster.fromVersion}`;
    if (byKey.has(key)) throw new Error(`Two upcasters for ${upcaster.eventType} v${upcaster.fromVersion}`);
    byKey.set(key, upcaster);
  }
  const types = new Set(upcasters.map((u) => u.eventType));
  return (type, data, metadata) => {
    if (!types.has(type)) return { data, metadata };
    let version = metadata.schemaVersion;
    let current = data;
    for (let next = byKey.get(`${type}\u0000${version}`); next; next = byKey.get(`${type}\u0000${version}`)) {
      current = next.upcast(current);
      version++;
    }
    return version === metadata.schemaVersion
      ? { data, metadata }
      : { data: current, metadata: { ...metadata, schemaVersion: version } };
  };
}
