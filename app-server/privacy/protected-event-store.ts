import type { Transaction } from 'kysely';
import type { EventStore, NewEvent, RecordedEvent } from '../../domain/shared/event-store.ts';
import type { PersonalKeyVault } from './key-vault.ts';
import type { PersonalDataRule } from './personal-data-policy.ts';

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
  const seal = async (events: readonly NewEvent[], tx: Tx | undefined): Promise<NewEvent[]> =>
    Promise.all(
      events.map(async (event) => {
        const rule = rules[event.type];
        const data = event.data as Record<string, unknown>;
        const subject = rule?.subject(data);
        if (!rule || !subject) return event;
        const box = await vault.keyFor(subject, tx);
        const sealed = { ...data };
        for (const field of rule.fields) {
          if (sealed[field] !== undefined && sealed[field] !== null && !isSealed(sealed[field])) {
            sealed[field] = { $personal: box.seal(JSON.stringify(sealed[field])) } satisfies SealedField;
          }
        }
        return { ...event, data: sealed };
      }),
    );

  const reveal = async (events: RecordedEvent[], tx: Tx | undefined): Promise<RecordedEvent[]> => {
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      const rule = rules[event.type];
      if (!rule) continue;
      const data = event.data as Record<string, unknown>;
      if (!rule.fields.some((field) => isSealed(data[field]))) continue;
      const subject = rule.subject(data);
      const box = subject ? await vault.existingKey(subject, tx) : null;
      const opened = { ...data };
      for (const field of rule.fields) {
        const value = opened[field];
        if (isSealed(value)) opened[field] = box ? JSON.parse(box.open(value.$personal)) : null;
      }
      events[i] = { ...event, data: opened };
    }
    return events;
  };

  return {
    async appendToStream(streamId, events, options = {}) {
      return store.appendToStream(streamId, await seal(events, options.transaction), options);
    },
    async appendToStreams(appends, options = {}) {
      const sealed = await Promise.all(
        appends.map(async (a) => ({ ...a, events: await seal(a.events, options.transaction) })),
      );
      return store.appendToStreams(sealed, options);
    },
    async readStreams(streamIds, options = {}) {
      const byStream = await store.readStreams(streamIds, options);
      for (const [id, events] of byStream) byStream.set(id, await reveal(events, options.transaction));
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
