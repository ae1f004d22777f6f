import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * A receipt's photos and documents, mirrored from the provider when the receipt is opened: one row per
 * receipt saying when its list was fetched and for which version of the receipt, and one row per file
 * the provider listed. A file's bytes are fetched on its first view and kept in UPLOADS_DIR; its row
 * then names them, with a photo's previews. No foreign key to the receipt: a sync may delete and bring
 * back a receipt, and the housekeeping removes the rows (and files) of receipts that are gone.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('receipt_attachment_lists', {
    receiptId: { type: DataTypes.INTEGER, primaryKey: true },
    /** The receipt's providerUpdatedAt when its list was fetched: a later change of the receipt fetches it again. */
    receiptVersion: { type: DataTypes.DATE, allowNull: false },
    checkedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.createTable('receipt_attachments', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    receiptId: { type: DataTypes.INTEGER, allowNull: false },
    /** The provider's id of the file. */
    providerId: { type: DataTypes.STRING(200), allowNull: false },
    /** Its place in the provider's list. */
    position: { type: DataTypes.INTEGER, allowNull: false },
    kind: { type: DataTypes.STRING(10), allowNull: false },
    fileName: { type: DataTypes.STRING(255), allowNull: false },
    /** As the provider declared it. */
    contentType: { type: DataTypes.STRING(100), allowNull: false },
    size: { type: DataTypes.BIGINT, allowNull: false },
    providerCreatedAt: { type: DataTypes.DATE, allowNull: true },
    /** Once fetched: its file in UPLOADS_DIR/attachments, the type its bytes are, and their size. */
    storedName: { type: DataTypes.STRING(100), allowNull: true },
    storedType: { type: DataTypes.STRING(100), allowNull: true },
    storedSize: { type: DataTypes.BIGINT, allowNull: true },
    /** A photo's previews (JSON), once made: {} when it could not be made smaller. */
    previews: { type: DataTypes.TEXT, allowNull: true },
    fetchedAt: { type: DataTypes.DATE, allowNull: true },
  });
  await queryInterface.addIndex('receipt_attachments', ['receiptId', 'providerId'], {
    unique: true,
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('receipt_attachments');
  await queryInterface.dropTable('receipt_attachment_lists');
}
