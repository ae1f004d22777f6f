/** What /api/health reports: whether the database answers a query. */
import type { Database } from '../db/database';

export async function checkHealth({ db }: { db: Database }): Promise<{ database: boolean; uptimeSeconds: number }> {
  const database = await db.sequelize.query('SELECT 1').then(
    () => true,
    () => false,
  );
  return { database, uptimeSeconds: Math.round(process.uptime()) };
}
