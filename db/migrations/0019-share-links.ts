import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Share links: a customer's read-only link to one receipt's status, opened without signing in. The
 * link carries a random token; only its SHA-256 is stored. A link ends when it expires, when its owner
 * revokes it, and with its owner's account (cascade on delete; a disabled owner's links are refused).
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('share_links', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    userId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    /** The provider's receipt id (no foreign key: a sync may delete and bring back a receipt). */
    receiptId: { type: DataTypes.INTEGER, allowNull: false },
    /** SHA-256 of the token, hex. */
    tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    revokedAt: { type: DataTypes.DATE, allowNull: true },
  });
  await queryInterface.addIndex('share_links', ['userId', 'expiresAt']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('share_links');
}
