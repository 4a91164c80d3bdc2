import type { Transaction } from 'kysely';
import type { EventStore, NewEvent, RecordedEvent } from '../../domain/shared/event-store.ts';
import type { SecretBox } from '../auth/secrets.ts';
import type { PersonalKeyVault } from './key-vault.ts';
import type { PersonalDataRule } from './personal-data-policy.ts';
import { personalBytes, personalValue } from './personal-value.ts';

type Tx = Transaction<object>;

/** How an encrypted field looks in the stored event: no one reading the raw log sees the value. */
interface SealedField {
  readonly $personal: string;
}

const isSealed = (value: unknown): value is SealedField =>
  typeof value === 'object' && value !== null && typeof (value as SealedField).$personal === 'string';

/**
 * Wraps an event store so the personal fields named by `rules` are encrypted under their owner's key on append and
 * decrypted on every read path (streams, the global log, subscriptions). After the owner's key is shredded the
 * fields read as null. Domain code, projections and process managers see plain events and never know.
 */
export function protectPersonalData(
  store: EventStore<Tx>,
  vault: PersonalKeyVault,
  rules: Readonly<Record<string, PersonalDataRule>>,
): EventStore<Tx> {
  /** The subject whose key seals the event's personal fields; null when it has none. */
  const subjectOf = (event: { type: string; data: unknown }): string | null =>
    rules[event.type]?.subject(event.data as Record<string, unknown>) || null;

  /** Every event of `batches` sealed, the keys of all their subjects read or made in one go (PersonalKeyVault.keysFor). */
  const seal = async (batches: readonly (readonly NewEvent[])[], tx: Tx | undefined): Promise<NewEvent[][]> => {
    const subjects = new Set(batches.flatMap((events) => events.flatMap((e) => subjectOf(e) ?? [])));
    const keys = subjects.size > 0 ? await vault.keysFor([...subjects], tx) : new Map<string, SecretBox>();
    return Promise.all(
      batches.map((events) =>
        Promise.all(
          events.map(async (event) => {
            const subject = subjectOf(event);
            if (!subject) return event;
            const box = keys.get(subject)!;
            const sealed = { ...(event.data as Record<string, unknown>) };
            for (const field of rules[event.type]!.fields) {
              if (sealed[field] !== undefined && sealed[field] !== null && !isSealed(sealed[field])) {
                sealed[field] = { $personal: await box.sealAsync(personalBytes(sealed[field])) } satisfies SealedField;
              }
            }
            return { ...event, data: sealed };
          }),
        ),
      ),
    );
  };

  /** Whether the event holds a sealed field to open. */
  const hasSealed = (event: RecordedEvent): boolean =>
    rules[event.type]?.fields.some((field) => isSealed((event.data as Record<string, unknown>)[field])) ?? false;

  /** `events` with their personal fields opened (null where the key is shredded), every subject's key read in one go. */
  const reveal = async (events: RecordedEvent[], tx: Tx | undefined): Promise<RecordedEvent[]> => {
    // The events holding sealed fields and their subjects, found once; a sealed field without a subject reads as null.
    const sealed = events.flatMap((event, i) => (hasSealed(event) ? [{ i, event, subject: subjectOf(event) }] : []));
    if (sealed.length === 0) return events;
    const subjects = new Set(sealed.flatMap((s) => s.subject ?? []));
    const keys = subjects.size > 0 ? await vault.existingKeys([...subjects], tx) : new Map<string, SecretBox | null>();
    for (const { i, event, subject } of sealed) {
      const box = subject ? (keys.get(subject) ?? null) : null;
      const opened = { ...(event.data as Record<string, unknown>) };
      for (const field of rules[event.type]!.fields) {
        const value = opened[field];
        if (isSealed(value)) opened[field] = box ? personalValue(box.openBytes(value.$personal)) : null;
      }
      events[i] = { ...event, data: opened };
    }
    return events;
  };

  return {
    async appendToStream(streamId, events, options = {}) {
      const [sealed] = await seal([events], options.transaction);
      return store.appendToStream(streamId, sealed!, options);
    },
    async appendToStreams(appends, options = {}) {
      const sealed = await seal(
        appends.map((a) => a.events),
        options.transaction,
      );
      return store.appendToStreams(
        appends.map((a, i) => ({ ...a, events: sealed[i]! })),
        options,
      );
    },
    async readStreams(streamIds, options = {}) {
      const byStream = await store.readStreams(streamIds, options);
      // One read of the keys for every stream: the streams' events revealed together, then put back per stream.
      const all = await reveal([...byStream.values()].flat(), options.transaction);
      let at = 0;
      for (const [id, events] of byStream) {
        byStream.set(id, all.slice(at, at + events.length));
        at += events.length;
      }
      return byStream;
    },
    async readStream(streamId, options = {}) {
      return reveal(await store.readStream(streamId, options), options.transaction);
    },
    async readAll(options = {}) {
      return reveal(await store.readAll(options), options.transaction);
    },
    async readAllToHead(options = {}) {
      const { events, head } = await store.readAllToHead(options);
      return { events: await reveal(events, options.transaction), head };
    },
    headPosition: (options) => store.headPosition(options),
    onAppended: (listener) => store.onAppended(listener),
    close: () => store.close(),
  };
}
