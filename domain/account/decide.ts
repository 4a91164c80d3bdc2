import { type Either, chain, left, map, right } from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type Decider, type DomainError, domainError } from '../shared/decider.ts';
import type { AccountCommand, RegisterUser, UpdateProfile } from './commands.ts';
import type { AccountEvent } from './events.ts';
import { ERASURE_DEADLINE_DAYS, validateDisplayName, validateTimeZone } from './rules.ts';
import { type AccountState, initialAccountState } from './state.ts';

type Result = Either<DomainError, readonly AccountEvent[]>;
type Active = Extract<AccountState, { status: 'active' }>;

const DAY_MS = 86_400_000;

function register(command: RegisterUser, state: AccountState): Result {
  if (state.status !== 'none') return left(domainError('conflict', 'account_exists', 'Account already exists'));
  return pipe(
    validateDisplayName(command.displayName),
    chain(() => validateTimeZone(command.timezone)),
    map((timezone): readonly AccountEvent[] => [
      { type: 'UserRegistered', data: { userId: command.userId, timezone, registeredAt: command.now } },
    ]),
  );
}

function update(command: UpdateProfile, state: Active): Result {
  const zone: Either<DomainError, string | undefined> =
    command.timezone === undefined ? right(undefined) : validateTimeZone(command.timezone);
  const name: Either<DomainError, string | undefined> =
    command.displayName === undefined ? right(undefined) : validateDisplayName(command.displayName);
  return pipe(
    zone,
    chain((timezone) =>
      pipe(
        name,
        chain((displayName): Result => {
          const timezoneChanged = timezone !== undefined && timezone !== state.timezone;
          const displayNameChanged = displayName !== undefined && displayName !== command.currentDisplayName;
          // §5: saving an unchanged profile is refused rather than recorded.
          if (!timezoneChanged && !displayNameChanged) {
            return left(domainError('invalid', 'no_changes', 'No changes to save'));
          }
          return right([
            {
              type: 'ProfileUpdated',
              data: {
                userId: state.userId,
                ...(timezoneChanged ? { timezone } : {}),
                displayNameChanged,
                updatedAt: command.now,
              },
            },
          ]);
        }),
      ),
    ),
  );
}

/** Decides an account command against the account's current state. */
export function decideAccount(command: AccountCommand, state: AccountState): Result {
  if (command.type === 'RegisterUser') return register(command, state);
  if (state.status === 'none') return left(domainError('not_found', 'user_not_found', 'User not found'));
  switch (command.type) {
    case 'UpdateProfile':
      if (state.status !== 'active') return left(domainError('not_found', 'user_not_found', 'User not found'));
      return update(command, state);
    case 'RequestAccountDeletion': {
      if (state.status !== 'active') {
        return left(domainError('conflict', 'deletion_already_requested', 'Account deletion was already requested'));
      }
      const eraseBy = new Date(Date.parse(command.now) + ERASURE_DEADLINE_DAYS * DAY_MS).toISOString();
      return right([
        { type: 'AccountDeletionRequested', data: { userId: state.userId, requestedAt: command.now, eraseBy } },
      ]);
    }
    case 'ErasePersonalData':
      if (state.status === 'erased') return right([]);
      if (state.status !== 'deletion_requested') {
        return left(domainError('conflict', 'deletion_not_requested', 'Account deletion was not requested'));
      }
      return right([{ type: 'PersonalDataErased', data: { userId: state.userId, erasedAt: command.now } }]);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** Applies one account event to the state. */
export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'UserRegistered':
      return { status: 'active', userId: event.data.userId, timezone: event.data.timezone };
    case 'ProfileUpdated':
      if (state.status !== 'active' || event.data.timezone === undefined) return state;
      return { ...state, timezone: event.data.timezone };
    case 'AccountDeletionRequested':
      return { status: 'deletion_requested', userId: event.data.userId, eraseBy: event.data.eraseBy };
    case 'PersonalDataErased':
      return { status: 'erased', userId: event.data.userId };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The account aggregate (stream `user-<id>`): registration, profile changes and deletion. */
export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
};

/** The stream of one user's account. */
export function accountStreamId(userId: string): string {
  return `user-${userId}`;
}
