import { Temporal } from 'temporal-polyfill';
import { describe, it } from 'vitest';
import { given } from '../shared/testing/given-when-then.ts';
import { accountDecider } from './decide.ts';
import type { AccountEvent } from './events.ts';

const at = '2026-11-18T12:00:00.000Z';
const now = Temporal.Instant.from(at);
const registered: AccountEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', timezone: 'America/New_York', registeredAt: at },
};
const register = { type: 'RegisterUser' as const, userId: 'u1', displayName: '  Ada  ', timezone: undefined, now };
const update = (timezone: string | undefined, displayName: string | undefined) => ({
  type: 'UpdateProfile' as const,
  timezone,
  displayName,
  currentDisplayName: 'Ada',
  now,
});

describe('account decider', () => {
  it('registers with the default time zone when none is given', () => {
    given(accountDecider).when(register).then([registered]);
  });

  it('registers with the canonical spelling of the given zone', () => {
    given(accountDecider)
      .when({ ...register, timezone: 'europe/paris' })
      .then([{ type: 'UserRegistered', data: { userId: 'u1', timezone: 'Europe/Paris', registeredAt: at } }]);
  });

  it('refuses an empty display name, an over-long one and an invalid zone', () => {
    given(accountDecider)
      .when({ ...register, displayName: '   ' })
      .thenRejects('display_name_required', 'Display name is required', 'invalid');
    given(accountDecider)
      .when({ ...register, displayName: 'x'.repeat(51) })
      .thenRejects('display_name_too_long', 'Display name must be at most 50 characters');
    given(accountDecider)
      .when({ ...register, timezone: 'Mars/Olympus' })
      .thenRejects('invalid_timezone', 'Time zone must be a valid IANA time zone');
  });

  it('refuses a second registration', () => {
    given(accountDecider, [registered]).when(register).thenRejects('account_exists', 'Account already exists');
  });

  it('records a changed zone and a changed name, but never the name itself', () => {
    given(accountDecider, [registered])
      .when(update('Asia/Tokyo', 'Grace'))
      .then([
        {
          type: 'ProfileUpdated',
          data: { userId: 'u1', timezone: 'Asia/Tokyo', displayNameChanged: true, updatedAt: at },
        },
      ]);
  });

  it('refuses an unchanged profile', () => {
    given(accountDecider, [registered])
      .when(update('America/New_York', 'Ada'))
      .thenRejects('no_changes', 'No changes to save');
  });

  it('requests deletion once, with a 30-day erasure deadline, then erases', () => {
    const requested: AccountEvent = {
      type: 'AccountDeletionRequested',
      data: { userId: 'u1', requestedAt: at, eraseBy: '2026-12-18T12:00:00.000Z' },
    };
    given(accountDecider, [registered]).when({ type: 'RequestAccountDeletion', now }).then([requested]);
    given(accountDecider, [registered, requested])
      .when({ type: 'RequestAccountDeletion', now })
      .thenRejects('deletion_already_requested', 'Account deletion was already requested');
    given(accountDecider, [registered, requested])
      .when({ type: 'ErasePersonalData', now })
      .then([{ type: 'PersonalDataErased', data: { userId: 'u1', erasedAt: at } }]);
    given(accountDecider, [registered])
      .when({ type: 'ErasePersonalData', now })
      .thenRejects('deletion_not_requested', 'Account deletion was not requested');
  });

  it('refuses profile changes after deletion was requested', () => {
    const requested: AccountEvent = {
      type: 'AccountDeletionRequested',
      data: { userId: 'u1', requestedAt: at, eraseBy: at },
    };
    given(accountDecider, [registered, requested])
      .when(update('Asia/Tokyo', undefined))
      .thenRejects('user_not_found', 'User not found');
  });
});
