import {
  ANY,
  type AppendStreamState,
  NO_STREAM,
  type Position,
  type ResolvedEvent,
  STREAM_EXISTS,
} from '@kurrent/kurrentdb-client';
import type {
  EventMetadata,
  ExpectedVersion,
  LogPosition,
  RecordedEvent,
} from '../../../../domain/shared/event-store.ts';
import type { UpcastFn } from '../upcasting.ts';

/** Our expected version as KurrentDB's stream state. */
export function toStreamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

/** KurrentDB log positions are byte offsets in its transaction file: far below 2^53 in practice. */
export function toLogPosition(position: Position | undefined): LogPosition {
  return position ? { commit: Number(position.commit), prepare: Number(position.prepare) } : { commit: 0, prepare: 0 };
}

/** The client's position type from ours. */
export function toKurrentPosition(position: LogPosition): Position {
  return { commit: BigInt(position.commit), prepare: BigInt(position.prepare) };
}

/** A resolved KurrentDB event as our RecordedEvent (JSON events only; this adapter writes nothing else). */
export function toRecordedEvent(resolved: ResolvedEvent, upcast: UpcastFn | null): RecordedEvent | null {
  const event = resolved.event;
  if (!event?.isJson) return null;
  const position = toLogPosition(event.position);
  let data: unknown = event.data;
  let metadata = event.metadata as unknown as EventMetadata;
  if (upcast) ({ data, metadata } = upcast(event.type, data, metadata));
  return {
    type: event.type,
    data,
    metadata,
    streamId: event.streamId,
    streamRevision: Number(event.revision),
    position,
    globalPosition: position.prepare,
    recordedAt: event.created.toISOString(),
  };
}
