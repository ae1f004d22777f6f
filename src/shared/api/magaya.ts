/** The Magaya connection's answers (src/shared/magaya.ts names their types), for the API description and its tests. */
import * as z from 'zod/mini';
import { schemaOf } from '../envelope';
import type { MagayaConnectionStatus, MagayaTestResult } from '../magaya';

const nullableText = z.nullable(z.string());

export const magayaConnectionStatusSchema = schemaOf<MagayaConnectionStatus>()(
  z.object({
    username: nullableText,
    source: z.nullable(z.enum(['environment', 'admin'])),
    endpoint: z.string(),
    lastSessionAt: nullableText,
    lastSessionError: nullableText,
    lastSessionErrorText: nullableText,
  }),
);

export const magayaTestResultSchema = schemaOf<MagayaTestResult>()(
  z.object({ ok: z.boolean(), error: nullableText, errorText: nullableText }),
);
