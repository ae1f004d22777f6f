/** Shared steps of the API tests of both tiers: arranging users through the real API, and reading the database. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { expect } from 'vitest';
import { ADMIN_PASSWORD } from './portal';
import { ApiClient, type ApiResponse, type PortalAddress } from './api-client';
import { stallLimit } from './test-pace';

/** A portal under test, spawned or in this process: where it answers, its folder and its database. */
export interface Portal extends PortalAddress {
  dir: string;
  /** Its DATABASE_URL: `sqlite:…` or `postgres://…`. */
  databaseUrl: string;
}

const onPostgresDatabase = (portal: Portal) => !portal.databaseUrl.startsWith('sqlite:');

/** The fields of a public User (src/shared/validation.ts), exactly. */
export const USER_FIELDS = [
  'createdAt',
  'email',
  'fullName',
  'id',
  'invited',
  'isActive',
  'lastLogin',
  'role',
  'username',
];

export type Role = 'admin' | 'admin-viewer' | 'viewer';

export interface TestUser {
  id: number;
  username: string;
  password: string;
  role: Role;
}

export async function signedInAdmin(portal: PortalAddress): Promise<ApiClient> {
  const admin = new ApiClient(portal);
  await admin.login('admin', ADMIN_PASSWORD);
  return admin;
}

/** Creates a user as the admin (one bcrypt hash: keep the count low). */
export async function createUser(
  admin: ApiClient,
  username: string,
  role: Role = 'viewer',
  password = `${username}-password`,
): Promise<TestUser> {
  const response = await admin.post('/api/auth/users', {
    username,
    password,
    role,
    fullName: `${username} name`,
    email: `${username}@example.com`,
  });
  if (response.status !== 201)
    throw new Error(
      `creating ${username} failed: ${response.status} ${JSON.stringify(response.body)}`,
    );
  return { id: response.body.data.user.id, username, password, role };
}

export async function signIn(
  portal: PortalAddress,
  user: { username: string; password: string },
): Promise<ApiClient> {
  const client = new ApiClient(portal);
  await client.login(user.username, user.password);
  return client;
}

/** Every key anywhere in a JSON value, nested objects and arrays included. */
export function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => [key, ...allKeys(inner)]);
  return [];
}

export function expectNoSecrets(body: unknown): void {
  expect(allKeys(body).filter((key) => /password|hash/i.test(key))).toEqual([]);
}

export function expectError(
  response: ApiResponse,
  status: number,
  errorType: string,
  message?: string | RegExp,
): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ success: false, errorType });
  expect(typeof response.body.message).toBe('string');
  if (typeof message === 'string') expect(response.body.message).toBe(message);
  else if (message) expect(response.body.message).toMatch(message);
}

/** The portal's session cookie token, from a client's Cookie header value. */
export function tokenOf(client: ApiClient): string {
  const match = /^portal_session=(.+)$/.exec(client.cookie ?? '');
  if (!match) throw new Error(`no session cookie in ${client.cookie}`);
  return decodeURIComponent(match[1]!);
}

/**
 * Reads the portal's database, as an operator would. The SQL is SQLite's (`?` parameters, bare
 * camelCase column names); on PostgreSQL it is run as the same statement there (see toPostgres), with
 * counts as numbers and times as ISO strings, so a test reads the same values on both.
 */
export async function queryDatabase<T = Record<string, unknown>>(
  portal: Portal,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (onPostgresDatabase(portal)) return (await onPostgres(portal, sql, params)).rows as T[];
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(sqliteFileOf(portal), sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return reject(openError);
      db.all(sql, params, (error, rows) => {
        db.close();
        if (error) reject(error);
        else resolve(rows as T[]);
      });
    });
  });
}

/**
 * Writes to the portal's database, for the few states no call can make (an aged session, a consignee
 * the provider has since dropped). Resolves with the number of rows changed.
 */
export async function writeDatabase(
  portal: Portal,
  sql: string,
  params: unknown[] = [],
): Promise<number> {
  if (onPostgresDatabase(portal)) return (await onPostgres(portal, sql, params)).rowCount ?? 0;
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(sqliteFileOf(portal), sqlite3.OPEN_READWRITE, (openError) => {
      if (openError) return reject(openError);
      db.configure('busyTimeout', 5_000);
      db.run(sql, params, function (error) {
        db.close();
        if (error) reject(error);
        else resolve(this.changes);
      });
    });
  });
}

/**
 * Everything the database holds, as text: on SQLite the file's bytes with its write-ahead log, on
 * PostgreSQL every row of every table. For asserting that a secret is never stored in the clear.
 */
export async function databaseText(portal: Portal): Promise<string> {
  if (onPostgresDatabase(portal)) {
    const tables = await queryDatabase<{ name: string }>(
      portal,
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    const dumps = await Promise.all(
      tables.map(({ name }) =>
        onPostgres(portal, `SELECT t::text AS content FROM "${name}" t`, []),
      ),
    );
    return dumps.flatMap((dump) => dump.rows.map((row) => row.content as string)).join('\n');
  }
  const file = sqliteFileOf(portal);
  const parts = await Promise.all(
    [file, `${file}-wal`].map((name) => readFile(name).catch(() => Buffer.alloc(0))),
  );
  return Buffer.concat(parts).toString('latin1');
}

const sqliteFileOf = (portal: Portal) => path.join(portal.dir, 'portal.sqlite');

/** Counts (bigint) as numbers and times as ISO strings, the forms the tests compare. */
const postgresTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return Number;
    if (oid === pg.types.builtins.TIMESTAMPTZ || oid === pg.types.builtins.TIMESTAMP) {
      const parse = pg.types.getTypeParser(oid, 'text');
      return (value: string) => (parse(value) as Date).toISOString();
    }
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

async function onPostgres(portal: Portal, sql: string, params: unknown[]): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: portal.databaseUrl, types: postgresTypes });
  await client.connect();
  try {
    return await client.query(toPostgres(sql), params);
  } finally {
    await client.end();
  }
}

/**
 * SQLite's statement as PostgreSQL's: `?` becomes `$1`, `$2`, …, and camelCase names get the quotes
 * PostgreSQL needs to keep their case (outside string literals).
 */
export function toPostgres(sql: string): string {
  let parameter = 0;
  return sql
    .split(/('(?:[^']|'')*')/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/\?/g, () => `$${++parameter}`)
            .replace(/(?<!["\w])([a-z]+[A-Z]\w*)(?!["\w])/g, '"$1"'),
    )
    .join('');
}

/** A time in the form the portal stores it on SQLite, which PostgreSQL reads as the same instant. */
export const databaseDate = (date: Date) =>
  date.toISOString().replace('T', ' ').replace('Z', ' +00:00');

export const mean = (values: number[]) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

/** Assigns consignees to a viewer through the admin's real call. */
export async function assignConsignees(
  admin: ApiClient,
  userId: number,
  consigneeIds: number[],
): Promise<void> {
  const response = await admin.post(`/api/consignees/user/${userId}/assign`, { consigneeIds });
  if (response.status !== 200)
    throw new Error(`assigning failed: ${response.status} ${JSON.stringify(response.body)}`);
}

/**
 * Polls `probe` until `accept` takes its value (a sync or a delivery happens in the background). The
 * limit means "stalled": `timeoutMs` on the reference machine, scaled by this run's slowness.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + stallLimit(timeoutMs);
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `condition not met in time; last value: ${JSON.stringify(value).slice(0, 500)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Polls until the mirror answers (the first sync runs in the background after start); `timeoutMs` as `eventually`'s. */
export async function waitForMirror(client: ApiClient, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + stallLimit(timeoutMs);
  for (;;) {
    const response = await client.get('/api/receipts?limit=1');
    if (response.status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`mirror not ready: ${response.status} ${JSON.stringify(response.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every receipt the client may see, through the list endpoint, 100 a page. */
export async function allReceipts(
  client: ApiClient,
  query = '',
): Promise<Array<Record<string, any>>> {
  const receipts: Array<Record<string, any>> = [];
  for (let page = 1; ; page += 1) {
    const response = await client.get(
      `/api/receipts?limit=100&page=${page}${query ? `&${query}` : ''}`,
    );
    if (response.status !== 200)
      throw new Error(`listing failed: ${response.status} ${JSON.stringify(response.body)}`);
    receipts.push(...response.body.data);
    if (!response.body.pagination.hasNextPage) return receipts;
  }
}
