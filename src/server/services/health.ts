/** What /api/health reports: whether the database answers a query. */
import { sequelize } from '../db';

export async function checkHealth(): Promise<{ database: boolean; uptimeSeconds: number }> {
  const database = await sequelize.query('SELECT 1').then(
    () => true,
    () => false,
  );
  return { database, uptimeSeconds: Math.round(process.uptime()) };
}
