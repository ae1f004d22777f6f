/** What /api/health reports: the database answers a query. */
import { sequelize } from '../db';

export async function checkHealth(): Promise<{ status: 'ok' | 'degraded'; database: 'ok' | 'unavailable'; uptimeSeconds: number }> {
  const database = await sequelize.query('SELECT 1').then(
    () => 'ok' as const,
    () => 'unavailable' as const,
  );
  return { status: database === 'ok' ? 'ok' : 'degraded', database, uptimeSeconds: Math.round(process.uptime()) };
}
