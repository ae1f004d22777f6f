/**
 * Consignees and their assignment to viewer users: the payload schemas the
 * endpoints parse with and the answer types the assignment screen reads.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { formatCount } from './format';

/** More ids than the provider has consignees is a mistake, not a request. */
export const CONSIGNEE_IDS_MAX = 5_000;

/** `message` builds the refusal when it is given, in the request's language. */
const positiveId = (message: () => string) => {
  const error = { error: message };
  return z
    .number(error)
    .check(z.int(error), z.positive(error), z.lte(Number.MAX_SAFE_INTEGER, error));
};

export const userIdPayloadSchema = z.object({
  userId: positiveId(() => m.consignees_user_id_invalid()),
});
export type UserIdPayload = z.output<typeof userIdPayloadSchema>;

export const consigneeIdsPayloadSchema = z.object({
  consigneeIds: z
    .array(
      positiveId(() => m.consignees_ids_invalid()),
      { error: () => m.consignees_ids_not_list() },
    )
    .check(
      z.minLength(1, { error: () => m.consignees_select_one() }),
      z.maxLength(CONSIGNEE_IDS_MAX, {
        error: () => m.consignees_too_many({ max: String(CONSIGNEE_IDS_MAX) }),
      }),
    ),
});
export type ConsigneeIdsPayload = z.output<typeof consigneeIdsPayloadSchema>;

export const bulkAssignmentPayloadSchema = z.extend(
  consigneeIdsPayloadSchema,
  userIdPayloadSchema.shape,
);
export type BulkAssignmentPayload = z.output<typeof bulkAssignmentPayloadSchema>;

export const consigneeSchema = z.object({ id: z.number(), name: z.string() });
export type ConsigneeDto = z.infer<typeof consigneeSchema>;

export const assignedUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  fullName: z.nullable(z.string()),
});
export type AssignedUser = z.infer<typeof assignedUserSchema>;

/** One row of GET /api/consignees/assignments: every consignee, assigned or not. */
export const consigneeAssignmentSchema = z.object({
  consignee: consigneeSchema,
  assignedUsers: z.array(assignedUserSchema),
});
export type ConsigneeAssignmentDto = z.infer<typeof consigneeAssignmentSchema>;

export const importResultSchema = z.object({
  imported: z.number(),
  updated: z.number(),
  deleted: z.number(),
  errors: z.array(z.string()),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const bulkAddResultSchema = z.object({ added: z.number(), skipped: z.number() });
export type BulkAddResult = z.infer<typeof bulkAddResultSchema>;

export const bulkReassignResultSchema = z.object({ reassigned: z.number() });
export type BulkReassignResult = z.infer<typeof bulkReassignResultSchema>;

export const lastImportSchema = z.object({ lastImportDate: z.nullable(z.string()) });
export type LastImportInfo = z.infer<typeof lastImportSchema>;

/** The import's result line, shown for 5 seconds after an import. */
export function importResultMessage(result: ImportResult): string {
  return m.consignees_import_result({
    imported: formatCount(result.imported),
    updated: formatCount(result.updated),
    deleted: formatCount(result.deleted),
    errors: formatCount(result.errors.length),
  });
}
