import { z } from 'zod';
import { entityId, isoInstant } from '../shared/event-schema.ts';

/*
 * Personal data (e-mail, display name, avatar) never goes into these events: it lives in the mutable `users` row,
 * which account deletion erases. Events keep only the pseudonymous user id, so the stake and payment history that
 * must stay auditable for years refers to nobody once the row is erased (see docs/auth.md).
 */

/** A person signed up; their profile row was written in the same transaction. */
export const UserRegistered = z.object({
  type: z.literal('UserRegistered'),
  data: z.object({ userId: entityId, timezone: z.string().min(1), registeredAt: isoInstant }),
});
/** A person signed up. */
export type UserRegistered = z.infer<typeof UserRegistered>;

/** The profile changed: a new time zone, and/or a new display name (the name itself stays in the users row). */
export const ProfileUpdated = z.object({
  type: z.literal('ProfileUpdated'),
  data: z.object({
    userId: entityId,
    timezone: z.string().min(1).optional(),
    displayNameChanged: z.boolean(),
    updatedAt: isoInstant,
  }),
});
/** The profile changed. */
export type ProfileUpdated = z.infer<typeof ProfileUpdated>;

/** The user asked for their account to be deleted; personal data must be gone by `eraseBy`. */
export const AccountDeletionRequested = z.object({
  type: z.literal('AccountDeletionRequested'),
  data: z.object({ userId: entityId, requestedAt: isoInstant, eraseBy: isoInstant }),
});
/** The user asked for their account to be deleted. */
export type AccountDeletionRequested = z.infer<typeof AccountDeletionRequested>;

/** The personal data of the account was erased; the pseudonymous history remains. */
export const PersonalDataErased = z.object({
  type: z.literal('PersonalDataErased'),
  data: z.object({ userId: entityId, erasedAt: isoInstant }),
});
/** The personal data of the account was erased. */
export type PersonalDataErased = z.infer<typeof PersonalDataErased>;

/** Every event of a user stream (`user-<id>`): the account decider's schema, checked before every append. */
export const AccountEvent = z.discriminatedUnion('type', [
  UserRegistered,
  ProfileUpdated,
  AccountDeletionRequested,
  PersonalDataErased,
]);
/** Every event of a user stream (`user-<id>`). */
export type AccountEvent = z.infer<typeof AccountEvent>;
