/**
 * One database: the Sequelize instance over DATABASE_URL (SQLite with WAL, a busy timeout and foreign
 * keys, or PostgreSQL), its models, and the ways of reading it that keep quick queries from waiting
 * behind long ones. The portal's composition root (src/server/portal.ts) makes one and closes it.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { QueryTypes, Sequelize, Transaction } from 'sequelize';
import type { Config } from '../config';
import { defineModels, type Models } from './models';
import { isReadStatement, WriteTurns } from './write-turns';

const BUSY_TIMEOUT_MS = 5_000;

/** Owner only: the database holds password and session hashes, e-mail addresses and the encrypted tokens. */
const DATABASE_FILE_MODE = 0o600;
const DATA_DIR_MODE = 0o700;

/**
 * Long reads (index walks, aggregates). With SQLite they run on connections of their own: each
 * connection runs one statement at a time, so on the shared one a long read would hold up every quick
 * query queued behind it. WAL lets these readers run beside the writer.
 */
const HEAVY_READ_CONNECTIONS = 2;

/**
 * Quick read statements kept prepared: a page's two reads for each page size asked for (an IN list of
 * one id per receipt on the page), the usual few and some more.
 */
const KEPT_STATEMENTS = 64;

interface SqliteStatement {
  all(values: unknown[], done: (error: Error | null, rows: unknown[]) => void): void;
  finalize(done: () => void): void;
}

interface SqliteConnection {
  prepare(sql: string, done: (error: Error | null) => void): SqliteStatement;
}

interface KeptStatement {
  connection: object;
  statement: Promise<SqliteStatement>;
}

/** A key no other advisory lock on the database uses: "FPST" in ASCII. */
const START_LOCK = 0x4650_5354;

function createSequelize(config: Pick<Config, 'databaseUrl' | 'sqliteFile'>): Sequelize {
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
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options?: object): Promise<Connection>;
  };
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
  const turns = new WriteTurns();
  const transaction = sequelize.transaction.bind(sequelize) as (
    ...args: unknown[]
  ) => Promise<unknown>;
  sequelize.transaction = ((...args: unknown[]) =>
    turns.take(() => transaction(...args))) as typeof sequelize.transaction;
  const query = sequelize.query.bind(sequelize) as (
    sql: string | { query: string },
    options?: { transaction?: unknown },
  ) => Promise<unknown>;
  sequelize.query = ((sql: string | { query: string }, options?: { transaction?: unknown }) =>
    options?.transaction || isReadStatement(typeof sql === 'string' ? sql : sql.query)
      ? query(sql, options)
      : turns.take(() => query(sql, options))) as typeof sequelize.query;
  return sequelize;
}

/**
 * Creates the SQLite file readable by its owner only before SQLite opens it (SQLite gives its WAL and
 * shared-memory files the database file's mode), and the folder when the portal makes it. A file an
 * earlier version left readable by others is narrowed.
 */
function prepareSqliteFile(file: string): void {
  const dir = path.dirname(file);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
  try {
    closeSync(openSync(file, 'wx', DATABASE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const part of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(part) && (statSync(part).mode & 0o077) !== 0)
      chmodSync(part, DATABASE_FILE_MODE);
  }
}

export class Database {
  readonly sequelize: Sequelize;
  readonly models: Models;
  readonly isSqlite: boolean;
  /** Reads in flight on each long-read connection. */
  private readonly heavyReadsInFlight = new Array<number>(HEAVY_READ_CONNECTIONS).fill(0);
  /** The quick reads' prepared statements on SQLite, by their text (see preparedStatement). */
  private readonly statements = new LRUCache<string, KeptStatement>({
    max: KEPT_STATEMENTS,
    dispose: ({ statement }) => {
      const finalized = statement.then(
        (made) => new Promise<void>((resolve) => made.finalize(() => resolve())),
        () => {},
      );
      this.finalizing.add(finalized);
      void finalized.then(() => this.finalizing.delete(finalized));
    },
  });
  private readonly finalizing = new Set<Promise<void>>();
  /**
   * The quick reads' statement names on PostgreSQL, by their text: two for each page size asked for,
   * so never more than 200.
   */
  private readonly statementNames = new Map<string, string>();

  constructor(private readonly config: Pick<Config, 'databaseUrl' | 'sqliteFile'>) {
    this.sequelize = createSequelize(config);
    this.models = defineModels(this.sequelize);
    this.isSqlite = this.sequelize.getDialect() === 'sqlite';
  }

  async connect(): Promise<void> {
    if (this.config.sqliteFile) prepareSqliteFile(this.config.sqliteFile);
    await this.sequelize.authenticate();
    if (this.isSqlite) {
      await this.sequelize.query('PRAGMA journal_mode = WAL');
      await this.sequelize.query('PRAGMA synchronous = NORMAL');
      await this.sequelize.query('PRAGMA foreign_keys = ON');
    }
  }

  async close(): Promise<void> {
    // SQLite refuses to close a connection with statements still prepared on it.
    this.statements.clear();
    await Promise.all(this.finalizing);
    await this.sequelize.close();
  }

  /**
   * Runs `read` with the query options of the least busy long-read connection: taken in turn, a quick
   * read could wait behind a long one while the other connection stood idle.
   */
  async heavyRead<T>(read: (options: { uuid: string }) => Promise<T>): Promise<T> {
    let chosen = 0;
    for (let connection = 1; connection < HEAVY_READ_CONNECTIONS; connection += 1) {
      if (this.heavyReadsInFlight[connection]! < this.heavyReadsInFlight[chosen]!)
        chosen = connection;
    }
    this.heavyReadsInFlight[chosen]! += 1;
    try {
      return await read({ uuid: `heavy-reads-${chosen}` });
    } finally {
      this.heavyReadsInFlight[chosen]! -= 1;
    }
  }

  /**
   * The rows of a quick read statement whose `$1`, `$2`, … are `values`. Run by the driver itself: on
   * SQLite on a connection of their own, on PostgreSQL on one from Sequelize's pool, with the same type
   * parsers. Sequelize's query path adds work on the event loop to every query (on SQLite it formats a
   * stack trace for each), which a page of the list, read on every request the read cache cannot
   * answer, need not pay. Inside `transaction`, Sequelize runs it on the transaction's connection.
   *
   * Not on SQLite's shared connection: Sequelize runs each of its queries there only once nothing is in
   * flight on it (node-sqlite3's serialize), and quick reads, which do not wait their turn, kept the
   * session checks waiting while pages were read under load.
   */
  async quickRead<T extends object>(
    sql: string,
    values: readonly (string | number)[],
    transaction?: Transaction,
  ): Promise<T[]> {
    if (transaction)
      return this.sequelize.query<T>(sql, {
        type: QueryTypes.SELECT,
        bind: [...values],
        transaction,
      });
    if (this.isSqlite) {
      const connection = (await this.sequelize.connectionManager.getConnection({
        uuid: 'quick-reads',
      } as never)) as unknown as SqliteConnection;
      const prepared = this.preparedStatement(connection, sql);
      const statement = await prepared;
      return new Promise((resolve, reject) =>
        statement.all([...values], (error, rows) => {
          if (!error) return resolve(rows as T[]);
          // Prepared again next time rather than kept in whatever state the failure left it.
          if (this.statements.peek(sql)?.statement === prepared) this.statements.delete(sql);
          reject(error);
        }),
      );
    }
    type PgConnection = {
      query(query: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
    };
    const manager = this.sequelize.connectionManager as unknown as {
      getConnection(): Promise<PgConnection>;
      releaseConnection(connection: PgConnection): void;
    };
    const connection = await manager.getConnection();
    try {
      // Named, each connection parses and plans the statement once rather than on every page.
      return (
        await connection.query({ name: this.statementName(sql), text: sql, values: [...values] })
      ).rows;
    } finally {
      manager.releaseConnection(connection);
    }
  }

  /**
   * The quick read's statement, prepared on the SQLite connection Sequelize's reads outside a
   * transaction use (kept open until the database closes). Preparing, running and finalizing each time
   * took three turns of the thread pool and about 0.3 ms of the event loop a query, a prepared one
   * running again one turn and 0.17 ms (measured with 10 reads in flight). node-sqlite3 resets a
   * statement's bindings before each run and queues runs that overlap.
   */
  private preparedStatement(connection: SqliteConnection, sql: string): Promise<SqliteStatement> {
    const kept = this.statements.get(sql);
    if (kept?.connection === connection) return kept.statement;
    // Kept while it is prepared, so that reads of the same text at once share one statement.
    const statement = new Promise<SqliteStatement>((resolve, reject) => {
      const made = connection.prepare(sql, (error) => (error ? reject(error) : resolve(made)));
    });
    this.statements.set(sql, { connection, statement });
    statement.catch(() => {
      if (this.statements.peek(sql)?.statement === statement) this.statements.delete(sql);
    });
    return statement;
  }

  /** The name a quick read's statement is prepared under on each PostgreSQL connection. */
  private statementName(sql: string): string {
    let name = this.statementNames.get(sql);
    if (name === undefined) {
      name = `quick-read-${this.statementNames.size + 1}`;
      this.statementNames.set(sql, name);
    }
    return name;
  }

  /**
   * Query options for reads of the whole mirror (its orders, after a sync): a connection of their
   * own, so no visitor's query waits behind one.
   */
  mirrorRead(): { uuid: string } {
    return { uuid: 'mirror-reads' };
  }

  /**
   * Runs `work` (migrations, the first admin) while no other process on the same PostgreSQL database
   * runs its own: processes started at once then set up the database one after another. The lock is a
   * session's, so it is held on a connection of its own. SQLite serves processes of one machine, which
   * README asks to start one after another after an upgrade.
   */
  async oneStartAtATime<T>(work: () => Promise<T>): Promise<T> {
    if (this.isSqlite) return work();
    type PgConnection = { query(sql: string, values: unknown[]): Promise<unknown> };
    const manager = this.sequelize.connectionManager as unknown as {
      getConnection(): Promise<PgConnection>;
      releaseConnection(connection: PgConnection): void;
    };
    const connection = await manager.getConnection();
    try {
      await connection.query('SELECT pg_advisory_lock($1)', [START_LOCK]);
      try {
        return await work();
      } finally {
        await connection.query('SELECT pg_advisory_unlock($1)', [START_LOCK]);
      }
    } finally {
      manager.releaseConnection(connection);
    }
  }

  /**
   * After a sync that wrote much of the mirror: PostgreSQL's statistics are renewed and the GIN indexes'
   * pending lists merged now rather than whenever autovacuum comes by. Until then the planner guesses
   * from an empty table, and a one-character search right after the first import took 18 s instead of
   * milliseconds. SQLite plans from its indexes alone.
   */
  async settleMirrorTables(): Promise<void> {
    if (this.isSqlite) return;
    await this.sequelize.query('VACUUM (ANALYZE) "receipts", "packages"');
  }
}
