import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTransientDatabaseError } from './transient-error.ts';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
const sqlstate = (cls: string) =>
  fc
    .string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 3, maxLength: 3 })
    .map((rest) => cls + rest);

describe('transient database errors', () => {
  it('counts connection loss, shutdown, start-up, exhaustion and lost races as transient', () => {
    for (const code of [
      '57P01',
      '57P02',
      '57P03',
      '08006',
      '08001',
      '08003',
      '53300',
      '53200',
      '40001',
      '40P01',
      '55P03',
    ]) {
      expect(isTransientDatabaseError(withCode(code)), code).toBe(true);
    }
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']) {
      expect(isTransientDatabaseError(withCode(code)), code).toBe(true);
    }
  });

  it('recognises node-postgres and kysely messages for a lost connection, also as the cause of another error', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
      'Postgres connection has been discarded',
    ]) {
      expect(isTransientDatabaseError(new Error(message)), message).toBe(true);
      expect(isTransientDatabaseError(new Error('Migration failed', { cause: new Error(message) })), message).toBe(
        true,
      );
    }
    expect(isTransientDatabaseError(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(
      true,
    );
  });

  it('never counts a refused statement as transient: bad data, constraints, syntax, a projector bug', () => {
    const refusedCode = fc.constantFrom('22', '23', '42', '2B', 'XX', 'P0').chain(sqlstate);
    const ordinaryMessage = fc
      .string()
      .filter(
        (m) =>
          !/^(Connection terminated|timeout exceeded|Postgres connection|Client was closed|Connection ended)|is not queryable$/.test(
            m,
          ),
      );
    fc.assert(
      fc.property(refusedCode, ordinaryMessage, (code, message) => !isTransientDatabaseError(withCode(code, message))),
      { numRuns: 1000 },
    );
    expect(isTransientDatabaseError(new TypeError("Cannot read properties of undefined (reading 'userId')"))).toBe(
      false,
    );
    expect(isTransientDatabaseError(withCode('22003', 'integer out of range'))).toBe(false);
    expect(isTransientDatabaseError(withCode('22P05', 'unsupported Unicode escape sequence'))).toBe(false);
    expect(isTransientDatabaseError(null)).toBe(false);
    expect(isTransientDatabaseError('Connection terminated')).toBe(false);
  });

  it('counts every code of class 08 (connection exception) as transient', () => {
    fc.assert(
      fc.property(sqlstate('08'), (code) => isTransientDatabaseError(withCode(code))),
      { numRuns: 500 },
    );
  });
});
