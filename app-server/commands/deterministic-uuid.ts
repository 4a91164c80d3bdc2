import { createHash } from 'node:crypto';

/**
 * A UUID derived from its parts: the same parts give the same id. An award caused by the same event gets the same
 * ids on a redelivery, a badge the same id in every rebuild, a recording the same run (runs/recording-id.ts).
 * Formatted as a version-8 (custom) UUID so the store's uuid column takes it.
 */
export function deterministicUuid(...parts: readonly string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
