/** The sync's answers (src/shared/sync.ts names their types), for the API description and its tests. */
import * as z from 'zod/mini';
import { schemaOf } from '../envelope';
import type { FreshnessMeta, SyncResult, SyncStatus } from '../sync';

export const freshnessMetaSchema = schemaOf<FreshnessMeta>()(
  z.object({ lastSyncedAt: z.nullable(z.string()) }),
);

export const syncResultSchema = schemaOf<SyncResult>()(
  z.object({
    full: z.boolean(),
    written: z.number(),
    deleted: z.number(),
    statusChanges: z.number(),
    finishedAt: z.string(),
  }),
);

export const syncStatusSchema = schemaOf<SyncStatus>()(
  z.object({
    lastSyncedAt: z.nullable(z.string()),
    written: z.nullable(z.number()),
    deleted: z.nullable(z.number()),
    lastError: z.nullable(z.string()),
    lastErrorAt: z.nullable(z.string()),
  }),
);
