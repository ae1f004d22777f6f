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
  // so each connection gets one the first time it is handed out. Only the first time: configure()
  // takes the connection's mutex, so on a busy connection it would block the event loop.
  type Connection = { configure(option: 'busyTimeout', ms: number): void };
  const manager = sequelize.connectionManager as unknown as { getConnection(options?: object): Promise<Connection> };
  const getConnection = manager.getConnection.bind(manager);
  const configured = new WeakSet<Connection>();
  manager.getConnection = async (options) => {
    const connection = await getConnection(options);
    if (!configured.has(connection)) {
      connection.configure('busyTimeout', BUSY_TIMEOUT_MS);
      configured.add(connection);
    }
    return connection;
  };
  return sequelize;
}

export const sequelize = createSequelize();

/**
 * Query options for long reads (index walks, aggregates). With SQLite they run on connections of
 * their own, taken in turn: each connection runs one statement at a time, so on the shared one a long
 * read would hold up every quick query queued behind it. WAL lets these readers run beside the writer.
 */
const HEAVY_READ_CONNECTIONS = 2;
let nextHeavyRead = 0;

export function heavyRead(): { uuid: string } {
  nextHeavyRead = (nextHeavyRead + 1) % HEAVY_READ_CONNECTIONS;
  return { uuid: `heavy-reads-${nextHeavyRead}` };
}

/** Query options for reads of the whole mirror (its orders, after a sync): a connection of their own, so no visitor's query waits behind one. */
export const mirrorRead = (): { uuid: string } => ({ uuid: 'mirror-reads' });

const isSqlite = sequelize.getDialect() === 'sqlite';

export async function connectDatabase(): Promise<void> {
  await sequelize.authenticate();
  if (isSqlite) {
    await sequelize.query('PRAGMA journal_mode = WAL');
    await sequelize.query('PRAGMA synchronous = NORMAL');
    await sequelize.query('PRAGMA foreign_keys = ON');
  }
}
