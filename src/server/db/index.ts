/** The Sequelize instance over DATABASE_URL: SQLite (WAL, busy timeout, foreign keys) or PostgreSQL. */
import { Sequelize, Transaction } from 'sequelize';
import { config } from '../config';

const BUSY_TIMEOUT_MS = 5_000;

function createSequelize(): Sequelize {
  if (!config.sqliteFile) {
    return new Sequelize(config.databaseUrl, { dialect: 'postgres', logging: false });
  }
  const sequelize = new Sequelize({
    dialect: 'sqlite',
    storage: config.sqliteFile,
    logging: false,
    // Deferred transactions can deadlock on the read→write lock upgrade; immediate ones queue instead.
    transactionType: Transaction.TYPES.IMMEDIATE,
  });
  // Sequelize opens one SQLite connection per transaction and sets no busy timeout on any of them,
  // so every connection it hands out gets one here (a cheap, synchronous call).
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options?: object): Promise<{ configure(option: 'busyTimeout', ms: number): void }>;
  };
  const getConnection = manager.getConnection.bind(manager);
  manager.getConnection = async (options) => {
    const connection = await getConnection(options);
    connection.configure('busyTimeout', BUSY_TIMEOUT_MS);
    return connection;
  };
  return sequelize;
}

export const sequelize = createSequelize();

const isSqlite = sequelize.getDialect() === 'sqlite';

export async function connectDatabase(): Promise<void> {
  await sequelize.authenticate();
  if (isSqlite) {
    await sequelize.query('PRAGMA journal_mode = WAL');
    await sequelize.query('PRAGMA synchronous = NORMAL');
    await sequelize.query('PRAGMA foreign_keys = ON');
  }
}
