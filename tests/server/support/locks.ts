// Race tests on PostgreSQL: whether another connection of the same database waits for a lock now
// (pg_stat_activity), so a test can commit the transaction it holds once the racer is blocked.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema';

export async function someoneWaitsForALock(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`
    select count(*)::int as waiting from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'
  `.execute(db);
  return (rows[0]?.waiting ?? 0) > 0;
}
