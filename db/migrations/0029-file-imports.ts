import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * File imports (PROVIDER=file): receipts come from CSV, XLSX and Magaya XML exports. `imported_receipts`
 * is how an imported receipt is known again: by its number, with the portal's id it was given and a
 * fingerprint of what the file said, so that importing the same file again changes nothing. `imports`
 * is the history (who imported which file, when, its counts and row errors); `import_mappings` keeps
 * an admin's column mapping per source, recognised by the SHA-256 of its header row.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('imported_receipts', {
    number: { type: DataTypes.STRING(40), primaryKey: true },
    receiptId: { type: DataTypes.INTEGER, allowNull: false, unique: true },
    /** SHA-256 (hex) of the receipt as the file gave it. */
    fingerprint: { type: DataTypes.STRING(64), allowNull: false },
  });

  await queryInterface.createTable('imports', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    fileName: { type: DataTypes.STRING(255), allowNull: false },
    /** csv, xlsx or xml. */
    format: { type: DataTypes.STRING(10), allowNull: false },
    /** upload or folder. */
    via: { type: DataTypes.STRING(10), allowNull: false },
    /** The admin who uploaded it; null for the watched folder or an account since deleted. */
    userId: {
      type: DataTypes.INTEGER,
      allowNull: true,
      references: { model: 'users', key: 'id' },
      onDelete: 'SET NULL',
    },
    username: { type: DataTypes.STRING(100), allowNull: true },
    full: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    created: { type: DataTypes.INTEGER, allowNull: false },
    updated: { type: DataTypes.INTEGER, allowNull: false },
    unchanged: { type: DataTypes.INTEGER, allowNull: false },
    removed: { type: DataTypes.INTEGER, allowNull: false },
    /** JSON: [{ row, column, message }]. */
    errors: { type: DataTypes.TEXT, allowNull: false },
    at: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('imports', ['at']);

  await queryInterface.createTable('import_mappings', {
    /** SHA-256 (hex) of the normalised header row. */
    signature: { type: DataTypes.STRING(64), primaryKey: true },
    /** JSON: { field: header }. */
    mapping: { type: DataTypes.TEXT, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('import_mappings');
  await queryInterface.dropTable('imports');
  await queryInterface.dropTable('imported_receipts');
}
