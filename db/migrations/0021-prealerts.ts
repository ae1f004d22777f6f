import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Pre-alerts: a customer announces a package on its way to the warehouse, for one of their
 * consignees, with an optional purchase invoice (a file in UPLOADS_DIR/prealerts). It is linked to the
 * receipt its package arrives on (`receiptId`), by the sync or by an admin.
 *
 * Packages' tracking keys lose their dashes too, as pre-alerts' tracking numbers do: one way of
 * writing a number, so that `1Z-999…` on either side matches `1Z999…` on the other.
 */
/** The hyphen and the dashes a phone's keyboard may put in its place, as tracking numbers drop them now. */
const DASHES = ['-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212'];

export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('prealerts', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    /** Who made it; the pre-alert stays with its consignee when the account goes. */
    userId: {
      type: DataTypes.INTEGER,
      allowNull: true,
      references: { model: 'users', key: 'id' },
      onDelete: 'SET NULL',
    },
    /** The provider's consignee id (no foreign key: consignees are imported and may be imported again). */
    consigneeId: { type: DataTypes.INTEGER, allowNull: false },
    carrier: { type: DataTypes.STRING(20), allowNull: false },
    /** Upper case, without spaces or dashes. */
    trackingNumber: { type: DataTypes.STRING(40), allowNull: false },
    shipper: { type: DataTypes.STRING(100), allowNull: false },
    description: { type: DataTypes.STRING(300), allowNull: false },
    declaredValueCents: { type: DataTypes.INTEGER, allowNull: false },
    /** The invoice's file in UPLOADS_DIR/prealerts, named by the server; null without one. */
    invoiceFileName: { type: DataTypes.STRING(100), allowNull: true },
    invoiceOriginalName: { type: DataTypes.STRING(255), allowNull: true },
    invoiceContentType: { type: DataTypes.STRING(50), allowNull: true },
    invoiceSize: { type: DataTypes.INTEGER, allowNull: true },
    /** The provider's receipt id once the package arrived (no foreign key: a sync may delete and bring back a receipt). */
    receiptId: { type: DataTypes.INTEGER, allowNull: true },
    matchedAt: { type: DataTypes.DATE, allowNull: true },
    /** `arrival` (the sync, or the pre-alert made after the package came) or `admin`. */
    matchedBy: { type: DataTypes.STRING(20), allowNull: true },
    /** A receipt an admin unlinked it from: the sync does not link it there again. */
    declinedReceiptId: { type: DataTypes.INTEGER, allowNull: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  // One pre-alert per package and consignee; the sync looks pre-alerts up by tracking number.
  await queryInterface.addIndex('prealerts', ['consigneeId', 'trackingNumber'], {
    unique: true,
    name: 'prealerts_consignee_tracking',
  });
  await queryInterface.addIndex('prealerts', ['trackingNumber']);
  await queryInterface.addIndex('prealerts', ['receiptId']);
  await queryInterface.addIndex('prealerts', ['createdAt']);
  for (const dash of DASHES) {
    await queryInterface.sequelize.query(
      `UPDATE "packages" SET "trackingKey" = REPLACE("trackingKey", :dash, '') WHERE "trackingKey" LIKE :containing`,
      {
        replacements: { dash, containing: `%${dash}%` },
      },
    );
  }
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('prealerts');
}
