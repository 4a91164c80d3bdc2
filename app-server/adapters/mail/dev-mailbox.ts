import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { ColumnType, Generated } from 'kysely';
import { type Mailer, extractLinks } from './mailer.ts';

type Tables = {
  dev_mail: {
    id: Generated<number>;
    to_address: string;
    subject: string;
    text_body: string;
    links: ColumnType<string[], string, string>;
    sent_at: ColumnType<Date, Date, Date>;
  };
};

/** A mail as the development mailbox shows it. */
export type StoredMail = { id: number; to: string; subject: string; text: string; links: string[]; sent_at: string };

/** The development mailbox: mails are kept in the database instead of sent, and read back as JSON. */
export interface DevMailbox extends Mailer {
  /** Newest first; optionally only those to one address. */
  list(options?: { to?: string; limit?: number }): Promise<StoredMail[]>;
  /** Forgets every mail to an address (account deletion). */
  forget(address: string): Promise<void>;
}

/** A DevMailbox over the dev_mail table. */
export function createDevMailbox(options: { db: Db; clock: Clock }): DevMailbox {
  const db = options.db.withTables<Tables>();
  return {
    async send(mail) {
      await db
        .insertInto('dev_mail')
        .values({
          to_address: mail.to,
          subject: mail.subject,
          text_body: mail.text,
          links: JSON.stringify(extractLinks(mail.text)),
          sent_at: options.clock.now(),
        })
        .execute();
    },
    async list({ to, limit = 50 } = {}) {
      let query = db.selectFrom('dev_mail').selectAll().orderBy('id', 'desc').limit(limit);
      if (to) query = query.where('to_address', '=', to.trim().toLowerCase());
      const rows = await query.execute();
      return rows.map((r) => ({
        id: r.id,
        to: r.to_address,
        subject: r.subject,
        text: r.text_body,
        links: r.links,
        sent_at: new Date(r.sent_at).toISOString(),
      }));
    },
    async forget(address) {
      await db.deleteFrom('dev_mail').where('to_address', '=', address).execute();
    },
  };
}
