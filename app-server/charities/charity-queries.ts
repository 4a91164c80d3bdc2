import type { Kysely, Transaction } from 'kysely';

/** A row of `charities` (kysely table type). */
export type CharitiesTable = {
  id: string;
  name: string;
  description: string;
  logo_url: string | null;
  website_url: string | null;
  is_active: boolean;
};

type CharityDb = Kysely<{ charities: CharitiesTable }>;

/** The charities a runner may choose now, by name (§7 "charities: active, by name"). */
export async function listActiveCharities(db: Kysely<object>): Promise<CharitiesTable[]> {
  return (db as CharityDb).selectFrom('charities').selectAll().where('is_active', '=', true).orderBy('name').execute();
}

/** Whether a charity can be chosen for a new stake. */
export async function isActiveCharity(db: Kysely<object> | Transaction<object>, id: string): Promise<boolean> {
  const row = await (db as CharityDb)
    .selectFrom('charities')
    .select('id')
    .where('id', '=', id)
    .where('is_active', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}
