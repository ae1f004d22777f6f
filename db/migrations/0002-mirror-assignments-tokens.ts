import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('consignees', {
    id: { type: DataTypes.INTEGER, primaryKey: true },
    name: { type: DataTypes.STRING(200), allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('consignees', ['name']);

  await queryInterface.createTable('consignee_assignments', {
    userId: {
      type: DataTypes.INTEGER,
      primaryKey: true,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    consigneeId: {
      type: DataTypes.INTEGER,
      primaryKey: true,
      references: { model: 'consignees', key: 'id' },
      onDelete: 'CASCADE',
    },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('consignee_assignments', ['consigneeId']);

  await queryInterface.createTable('receipts', {
    id: { type: DataTypes.INTEGER, primaryKey: true },
    number: { type: DataTypes.STRING(40), allowNull: false },
    receivedDate: { type: DataTypes.DATE, allowNull: true },
    shipperName: { type: DataTypes.STRING(200), allowNull: false },
    consigneeId: { type: DataTypes.INTEGER, allowNull: true },
    consigneeName: { type: DataTypes.STRING(200), allowNull: false },
    pieces: { type: DataTypes.INTEGER, allowNull: false },
    totalWeightValue: { type: DataTypes.DOUBLE, allowNull: false },
    totalVolumeValue: { type: DataTypes.DOUBLE, allowNull: false },
    destination: { type: DataTypes.STRING(200), allowNull: false },
    status: { type: DataTypes.STRING(100), allowNull: false },
    modeOfTransportation: { type: DataTypes.STRING(100), allowNull: false },
    originName: { type: DataTypes.STRING(200), allowNull: false },
    searchText: { type: DataTypes.STRING(700), allowNull: false },
    providerUpdatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  // One index per sort key, in list order (ties by id), carrying the consignee so that a viewer's
  // list is read from the index alone.
  for (const key of ['receivedDate', 'number', 'shipperName', 'consigneeName', 'status']) {
    await queryInterface.addIndex('receipts', [key, 'id', 'consigneeId'], {
      name: `receipts_by_${key}`,
    });
  }
  await queryInterface.addIndex('receipts', ['consigneeId', 'receivedDate']);

  await queryInterface.createTable('packages', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    receiptId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'receipts', key: 'id' },
      onDelete: 'CASCADE',
    },
    position: { type: DataTypes.INTEGER, allowNull: false },
    description: { type: DataTypes.STRING(300), allowNull: false },
    trackingNumber: { type: DataTypes.STRING(64), allowNull: true },
    trackingKey: { type: DataTypes.STRING(64), allowNull: true },
    pieces: { type: DataTypes.INTEGER, allowNull: false },
    totalWeightValue: { type: DataTypes.DOUBLE, allowNull: false },
    totalVolumeValue: { type: DataTypes.DOUBLE, allowNull: false },
  });
  await queryInterface.addIndex('packages', ['receiptId', 'position']);
  await queryInterface.addIndex('packages', ['trackingKey']);
  if (queryInterface.sequelize.getDialect() === 'sqlite')
    await createSubstringIndexes(queryInterface);

  await queryInterface.createTable('provider_tokens', {
    id: { type: DataTypes.INTEGER, primaryKey: true },
    accessToken: { type: DataTypes.TEXT, allowNull: true },
    refreshToken: { type: DataTypes.TEXT, allowNull: true },
    accessTokenExpiresAt: { type: DataTypes.DATE, allowNull: true },
    refreshTokenExpiresAt: { type: DataTypes.DATE, allowNull: true },
    source: { type: DataTypes.STRING(20), allowNull: true },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });

  await queryInterface.createTable('sync_state', {
    id: { type: DataTypes.INTEGER, primaryKey: true },
    cursor: { type: DataTypes.STRING(200), allowNull: true },
    lastSuccessAt: { type: DataTypes.DATE, allowNull: true },
    lastFullSyncAt: { type: DataTypes.DATE, allowNull: true },
    lastErrorAt: { type: DataTypes.DATE, allowNull: true },
    lastError: { type: DataTypes.TEXT, allowNull: true },
    lastConsigneeImportAt: { type: DataTypes.DATE, allowNull: true },
    demoUsersCreatedAt: { type: DataTypes.DATE, allowNull: true },
  });
}

/**
 * Substring search ("contains") cannot use a B-tree index; SQLite's FTS5 trigram tokenizer can. The
 * two indexes follow their tables through triggers, so every write path keeps them current.
 */
async function createSubstringIndexes(queryInterface: QueryInterface): Promise<void> {
  const statements = [
    `CREATE VIRTUAL TABLE receipts_search USING fts5(searchText, content='receipts', content_rowid='id', tokenize='trigram')`,
    `CREATE TRIGGER receipts_search_insert AFTER INSERT ON receipts BEGIN
       INSERT INTO receipts_search(rowid, searchText) VALUES (new.id, new.searchText); END`,
    `CREATE TRIGGER receipts_search_delete AFTER DELETE ON receipts BEGIN
       INSERT INTO receipts_search(receipts_search, rowid, searchText) VALUES ('delete', old.id, old.searchText); END`,
    `CREATE TRIGGER receipts_search_update AFTER UPDATE OF searchText ON receipts BEGIN
       INSERT INTO receipts_search(receipts_search, rowid, searchText) VALUES ('delete', old.id, old.searchText);
       INSERT INTO receipts_search(rowid, searchText) VALUES (new.id, new.searchText); END`,
    `CREATE VIRTUAL TABLE packages_tracking USING fts5(trackingKey, content='packages', content_rowid='id', tokenize='trigram')`,
    `CREATE TRIGGER packages_tracking_insert AFTER INSERT ON packages WHEN new.trackingKey IS NOT NULL BEGIN
       INSERT INTO packages_tracking(rowid, trackingKey) VALUES (new.id, new.trackingKey); END`,
    `CREATE TRIGGER packages_tracking_delete AFTER DELETE ON packages WHEN old.trackingKey IS NOT NULL BEGIN
       INSERT INTO packages_tracking(packages_tracking, rowid, trackingKey) VALUES ('delete', old.id, old.trackingKey); END`,
    `CREATE TRIGGER packages_tracking_update AFTER UPDATE OF trackingKey ON packages BEGIN
       INSERT INTO packages_tracking(packages_tracking, rowid, trackingKey) SELECT 'delete', old.id, old.trackingKey WHERE old.trackingKey IS NOT NULL;
       INSERT INTO packages_tracking(rowid, trackingKey) SELECT new.id, new.trackingKey WHERE new.trackingKey IS NOT NULL; END`,
  ];
  for (const statement of statements) await queryInterface.sequelize.query(statement);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  if (queryInterface.sequelize.getDialect() === 'sqlite') {
    await queryInterface.sequelize.query('DROP TABLE IF EXISTS packages_tracking');
    await queryInterface.sequelize.query('DROP TABLE IF EXISTS receipts_search');
  }
  for (const table of [
    'sync_state',
    'provider_tokens',
    'packages',
    'receipts',
    'consignee_assignments',
    'consignees',
  ]) {
    await queryInterface.dropTable(table);
  }
}
