import { type Either, chain, left, map, right } from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { isoMillis } from '../shared/instant.ts';
import type { AccountCommand, RegisterUser, UpdateProfile } from './commands.ts';
import { AccountEvent } from './events.ts';
import { accountErrors } from './messages.ts';
import { ERASURE_DEADLINE_DAYS } from './policy.ts';
import { validateDisplayName, validateTimeZone } from './rules.ts';
import { type AccountState, evolveAccount, initialAccountState } from './state.ts';

/*
 * THE ACCOUNT (§3 User, §5 profile rules; docs/auth.md).
 *
 * The account stream records what the rest of the product may rely on about a person without knowing who they are:
 * that they registered, in which time zone their weeks run, and that they asked to be forgotten. Names and e-mail
 * addresses are personal data: they live in the users row, which erasure wipes, and an event only says that the
 * name changed. Saving an unchanged profile is refused rather than recorded (§5), so the log holds changes only.
 * A deletion request promises erasure within ERASURE_DEADLINE_DAYS; once requested the profile can no longer
 * change, and erasing twice is a no-op (a retried erasure must not fail the request that completed it).
 */

type Decision = Either<DomainError, readonly AccountEvent[]>;
type Active = Extract<AccountState, { status: 'active' }>;

function register(command: RegisterUser, state: AccountState): Decision {
  if (state.status !== 'none') return left(accountErrors.exists());
  return pipe(
    validateDisplayName(command.displayName),
    chain(() => validateTimeZone(command.timezone)),
    map((timezone): readonly AccountEvent[] => [
      { type: 'UserRegistered', data: { userId: command.userId, timezone, registeredAt: isoMillis(command.now) } },
    ]),
  );
}

function update(command: UpdateProfile, state: Active): Decision {
  const zone: Either<DomainError, string | undefined> =
    command.timezone === undefined ? right(undefined) : validateTimeZone(command.timezone);
  const name: Either<DomainError, string | undefined> =
    command.displayName === undefined ? right(undefined) : validateDisplayName(command.displayName);
  return pipe(
    zone,
    chain((timezone) =>
      pipe(
        name,
        chain((displayName): Decision => {
          const timezoneChanged = timezone !== undefined && timezone !== state.timezone;
          const displayNameChanged = displayName !== undefined && displayName !== command.currentDisplayName;
          if (!timezoneChanged && !displayNameChanged) return left(accountErrors.noChanges());
          return right([
            {
              type: 'ProfileUpdated',
              data: {
                userId: state.userId,
                ...(timezoneChanged ? { timezone } : {}),
                displayNameChanged,
                updatedAt: isoMillis(command.now),
              },
            },
          ]);
        }),
      ),
    ),
  );
}

/** Decides an account command against the account's current state. */
export function decideAccount(command: AccountCommand, state: AccountState): Decision {
  if (command.type === 'RegisterUser') return register(command, state);
  if (state.status === 'none') return left(accountErrors.notFound());
  switch (command.type) {
    case 'UpdateProfile':
      if (state.status !== 'active') return left(accountErrors.notFound());
      return update(command, state);
    case 'RequestAccountDeletion': {
      if (state.status !== 'active') return left(accountErrors.deletionAlreadyRequested());
      const eraseBy = isoMillis(command.now.add({ hours: 24 * ERASURE_DEADLINE_DAYS }));
      return right([
        {
          type: 'AccountDeletionRequested',
          data: { userId: state.userId, requestedAt: isoMillis(command.now), eraseBy },
        },
      ]);
    }
    case 'ErasePersonalData':
      if (state.status === 'erased') return right([]);
      if (state.status !== 'deletion_requested') return left(accountErrors.deletionNotRequested());
      return right([{ type: 'PersonalDataErased', data: { userId: state.userId, erasedAt: isoMillis(command.now) } }]);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** The account aggregate (stream `user-<id>`): registration, profile changes and deletion. */
export const accountDecider = defineDecider<AccountCommand, AccountEvent, AccountState>({
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
  eventSchema: AccountEvent,
});
