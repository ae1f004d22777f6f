/**
 * The migrations build the schema the models read and write: on an empty database (SQLite here, and
 * PostgreSQL in the database leg), every table and column a model names exists with the model's
 * nullability and kind of type, any other column fills itself, and every migration is recorded, so that the next start runs none of them again.
 */
import { globSync } from 'node:fs';
import path from 'node:path';
import { DataTypes, type ModelStatic, type Model } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';

let portal: InProcessPortal;

beforeAll(async () => {
  portal = await startInProcessPortal({}, { background: false, emptyDatabase: true });
});

afterAll(async () => {
  await portal?.stop();
});

/** A column type as a kind both databases agree on: "text", "integer", "decimal", "boolean", "date", "blob". */
function kindOfColumn(databaseType: string): string {
  const type = databaseType.toLowerCase();
  if (/char|text|uuid|json/.test(type)) return 'text';
  if (/bool|tinyint\(1\)/.test(type)) return 'boolean';
  if (/int|serial/.test(type)) return 'integer';
  if (/real|double|float|decimal|numeric/.test(type)) return 'decimal';
  if (/date|time/.test(type)) return 'date';
  if (/blob|bytea/.test(type)) return 'blob';
  return type;
}

function kindOfAttribute(type: unknown): string {
  if (
    type instanceof DataTypes.STRING ||
    type instanceof DataTypes.TEXT ||
    type instanceof DataTypes.UUID ||
    type instanceof DataTypes.JSON
  )
    return 'text';
  if (type instanceof DataTypes.BOOLEAN) return 'boolean';
  if (type instanceof DataTypes.INTEGER || type instanceof DataTypes.BIGINT) return 'integer';
  if (
    type instanceof DataTypes.DOUBLE ||
    type instanceof DataTypes.FLOAT ||
    type instanceof DataTypes.DECIMAL ||
    type instanceof DataTypes.REAL
  )
    return 'decimal';
  if (type instanceof DataTypes.DATE || type instanceof DataTypes.DATEONLY) return 'date';
  if (type instanceof DataTypes.BLOB) return 'blob';
  return String(type);
}

describe('migrations on an empty database', () => {
  it('when every migration has run, then each model finds its table with every column it names, of its nullability and kind', async () => {
    const { sequelize, models } = portal.portal.db;
    const queryInterface = sequelize.getQueryInterface();
    const mismatches: string[] = [];
    const modelList = Object.values(models) as ModelStatic<Model>[];
    expect(modelList.length).toBeGreaterThan(10);
    for (const model of modelList) {
      const table = model.getTableName() as string;
      const columns = await queryInterface.describeTable(table);
      for (const [name, attribute] of Object.entries(model.getAttributes())) {
        const column = columns[attribute.field ?? name];
        if (!column) {
          mismatches.push(`${table}.${attribute.field ?? name}: missing`);
          continue;
        }
        // Sequelize always writes the timestamps it manages; the tables may insist on them.
        const managedBySequelize = Object.values(
          (model as unknown as { _timestampAttributes: Record<string, string> })
            ._timestampAttributes,
        ).includes(name);
        const modelAllowsNull = attribute.allowNull !== false;
        if (column.allowNull !== modelAllowsNull && !attribute.primaryKey && !managedBySequelize) {
          mismatches.push(
            `${table}.${name}: the model says ${modelAllowsNull ? 'NULL' : 'NOT NULL'}, the table ${column.allowNull ? 'NULL' : 'NOT NULL'}`,
          );
        }
        if (kindOfAttribute(attribute.type) !== kindOfColumn(column.type)) {
          mismatches.push(
            `${table}.${name}: the model's ${kindOfAttribute(attribute.type)}, the table's ${column.type}`,
          );
        }
      }
      // A column the model never writes must take care of itself, or every insert fails.
      const named = new Set(
        Object.entries(model.getAttributes()).map(([name, attribute]) => attribute.field ?? name),
      );
      for (const [name, column] of Object.entries(columns)) {
        if (
          !named.has(name) &&
          !column.allowNull &&
          column.defaultValue === null &&
          !column.autoIncrement
        ) {
          mismatches.push(`${table}.${name}: NOT NULL without a default, and no model writes it`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('when every migration has run, then each is recorded once, in order, so that a restart runs none again', async () => {
    const files = globSync('db/migrations/*.ts', {
      cwd: path.resolve(import.meta.dirname, '../../..'),
    })
      .map((file) => path.basename(file, '.ts'))
      .sort();
    const [rows] = await portal.portal.db.sequelize.query(
      'SELECT name FROM migrations ORDER BY name',
    );
    expect((rows as { name: string }[]).map((row) => row.name)).toEqual(files);
  });
});
