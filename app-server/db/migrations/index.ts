import type { Migration } from 'kysely/migration';
import { eventStoreMigrations } from '../../adapters/event-store/postgres/migrations.ts';
import { localGatewayMigrations } from '../../adapters/payments/local/migrations.ts';
import { authMigrations } from '../../auth/migrations.ts';
import { privacyMigrations } from '../../privacy/migrations.ts';
import { goalLifecycleMigrations } from '../../process/goal-lifecycle/migrations.ts';
import { stakeProcessMigrations } from '../../process/stakes/migrations.ts';
import { charityMigrations } from '../../charities/migrations.ts';
import { notificationsMigrations } from '../../commands/notifications/migrations.ts';
import { preferencesMigrations } from '../../commands/preferences/migrations.ts';
import { engineMigrations } from '../../../projections/engine/migrations.ts';
import { integrationsMigrations } from '../../integrations/migrations.ts';
import { idempotencyMigrations } from '../../commands/idempotency/migrations.ts';
import { limitMigrations } from '../../http/limits/migrations.ts';
import { snapshotMigrations } from '../../snapshots/migrations.ts';

/**
 * Every schema migration, by name. Kysely runs them in name order; names start with a date and a module so
 * that modules written in parallel never collide (e.g. `2026-11-22-01-event-store-tables`). Each module owns
 * its record.
 */
export const migrations: Record<string, Migration> = {
  ...eventStoreMigrations,
  ...engineMigrations,
  ...authMigrations,
  ...goalLifecycleMigrations,
  ...localGatewayMigrations,
  ...preferencesMigrations,
  ...notificationsMigrations,
  ...charityMigrations,
  ...stakeProcessMigrations,
  ...privacyMigrations,
  ...integrationsMigrations,
  ...idempotencyMigrations,
  ...limitMigrations,
  ...snapshotMigrations,
};
