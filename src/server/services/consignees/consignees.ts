/** Consignees: imported from the provider; those it no longer has lose their assignments. */
import { Op } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import type { ImportResult, LastImportInfo } from '~/shared/consignees';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { ProviderError, type ProviderClient } from '../../provider/contract';
import type { SingleFlight } from '../../single-flight';
import { recordAudit, type AuditActor } from '../audit';
import { providerUnavailable, readSyncState, saveSyncState, type LastSyncTime } from '../receipts';

const MAX_NAME_LENGTH = 200;

export interface ConsigneeImportDeps {
  db: Database;
  lastSync: LastSyncTime;
  provider: ProviderClient;
  clock: Clock;
  /** One import at a time: a second click while one runs gets the running one's result. */
  consigneeImports: SingleFlight<ImportResult>;
}

/**
 * `actor` is the admin who asked; null when the portal itself imports (the demo customer's). A click
 * that joins a running import is not recorded again: it imported nothing of its own.
 */
export function importConsignees(
  deps: ConsigneeImportDeps,
  actor: AuditActor | null,
): Promise<ImportResult> {
  return deps.consigneeImports.run(() => runImport(deps, actor));
}

export async function readLastImport(deps: { db: Database }): Promise<LastImportInfo> {
  const { lastConsigneeImportAt } = await readSyncState(deps);
  return {
    lastImportDate: lastConsigneeImportAt ? new Date(lastConsigneeImportAt).toISOString() : null,
  };
}

async function runImport(
  deps: ConsigneeImportDeps,
  actor: AuditActor | null,
): Promise<ImportResult> {
  const { db, provider, clock } = deps;
  let incoming;
  try {
    incoming = await provider.listConsignees();
  } catch (error) {
    if (error instanceof ProviderError) throw providerUnavailable(error);
    throw error;
  }
  const result: ImportResult = { imported: 0, updated: 0, deleted: 0, errors: [] };
  const valid = new Map<number, string>();
  for (const consignee of incoming) {
    const name = typeof consignee?.name === 'string' ? consignee.name.trim() : '';
    if (
      !Number.isSafeInteger(consignee?.id) ||
      consignee.id < 1 ||
      !name ||
      name.length > MAX_NAME_LENGTH
    ) {
      result.errors.push(
        m.consignees_skipped_invalid({ consignee: JSON.stringify(consignee).slice(0, 120) }),
      );
      continue;
    }
    valid.set(consignee.id, name);
  }
  const { Consignee, ConsigneeAssignment } = db.models;
  await db.sequelize.transaction(async (transaction) => {
    const existing = new Map(
      (await Consignee.findAll({ attributes: ['id', 'name'], raw: true, transaction })).map(
        (row) => [row.id, row.name],
      ),
    );
    const changed = [...valid].filter(([id, name]) => existing.get(id) !== name);
    result.imported = changed.filter(([id]) => !existing.has(id)).length;
    result.updated = changed.length - result.imported;
    if (changed.length) {
      await Consignee.bulkCreate(
        changed.map(([id, name]) => ({ id, name })),
        { updateOnDuplicate: ['name', 'updatedAt'], transaction },
      );
    }
    const gone = [...existing.keys()].filter((id) => !valid.has(id));
    if (gone.length) {
      await ConsigneeAssignment.destroy({ where: { consigneeId: { [Op.in]: gone } }, transaction });
      await Consignee.destroy({ where: { id: { [Op.in]: gone } }, transaction });
    }
    result.deleted = gone.length;
    await saveSyncState(deps, { lastConsigneeImportAt: new Date(clock.now()) }, transaction);
    if (actor) {
      const detail = {
        imported: result.imported,
        updated: result.updated,
        deleted: result.deleted,
        skipped: result.errors.length,
      };
      await recordAudit(
        deps,
        actor,
        { action: 'consignees.imported', target: 'consignees', detail },
        transaction,
      );
    }
  });
  return result;
}
