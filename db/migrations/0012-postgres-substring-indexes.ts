/**
 * PostgreSQL's counterpart of SQLite's FTS5 trigram indexes (migration 0002): pg_trgm GIN indexes
 * answer the search's and the tracking filter's "contains" (LIKE '%…%') from the index. pg_trgm is a
 * trusted extension, so the database's owner may create it. SQLite has its indexes already.
 */
import type { QueryInterface } from 'sequelize';

export async function up(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  if (sequelize.getDialect() !== 'postgres') return;
  await sequelize.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await sequelize.query(
    'CREATE INDEX "receipts_search_trigrams" ON "receipts" USING gin ("searchText" gin_trgm_ops)',
  );
  await sequelize.query(
    'CREATE INDEX "packages_tracking_trigrams" ON "packages" USING gin ("trackingKey" gin_trgm_ops)',
  );
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  if (sequelize.getDialect() !== 'postgres') return;
  await sequelize.query('DROP INDEX IF EXISTS "packages_tracking_trigrams"');
  await sequelize.query('DROP INDEX IF EXISTS "receipts_search_trigrams"');
}
