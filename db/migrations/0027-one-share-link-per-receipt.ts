import type { QueryInterface } from 'sequelize';

/**
 * A customer's receipt has at most one share link that is not revoked: a reload of the form that made
 * one no longer makes another, and a new link on purpose revokes the old one first. Links made before
 * this rule keep only the newest of each customer's receipt; the others are revoked now. An expired
 * link still counts until it is revoked (the service revokes it as it makes the next).
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.sequelize.query(
    `UPDATE "share_links" SET "revokedAt" = :now
      WHERE "revokedAt" IS NULL
        AND "id" NOT IN (SELECT MAX("id") FROM "share_links" WHERE "revokedAt" IS NULL GROUP BY "userId", "receiptId")`,
    { replacements: { now: new Date() } },
  );
  await queryInterface.addIndex('share_links', ['userId', 'receiptId'], {
    name: 'share_links_one_active_per_receipt',
    unique: true,
    where: { revokedAt: null },
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.removeIndex('share_links', 'share_links_one_active_per_receipt');
}
