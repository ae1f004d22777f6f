/** The health answers, for load balancers, uptime checks and deploy scripts. */
import * as z from 'zod/mini';
import { ERROR_TYPES } from './envelope';

/** GET /api/health: the database answers. */
export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  uptimeSeconds: z.number(),
});

/** GET /api/health/live: the process answers at all. */
export const livenessSchema = z.object({
  status: z.literal('ok'),
  checks: z.object({ process: z.object({ status: z.literal('ok'), uptimeSeconds: z.number() }) }),
});

export const STARTUP_STATES = ['starting', 'started', 'failed'] as const;
export type StartupState = (typeof STARTUP_STATES)[number];

/** What readiness found; the sync and the outbox are information and never make a process unready. */
export const readinessChecksSchema = z.object({
  startup: z.object({ status: z.enum(['ok', 'fail']), state: z.enum(STARTUP_STATES) }),
  database: z.object({ status: z.enum(['ok', 'fail', 'skipped']) }),
  migrations: z.object({
    status: z.enum(['ok', 'fail', 'skipped']),
    pending: z.optional(z.number()),
  }),
  sync: z.object({
    status: z.enum(['ok', 'stale', 'failing', 'skipped']),
    lastSuccessAt: z.optional(z.nullable(z.string())),
    lastErrorAt: z.optional(z.nullable(z.string())),
  }),
  outbox: z.object({
    status: z.enum(['ok', 'backlog', 'skipped']),
    /** E-mails and jobs waiting. */
    pending: z.optional(z.number()),
    /** Of those, the jobs: forwards to the provider and webhook deliveries. */
    pendingJobs: z.optional(z.number()),
    oldestAgeSeconds: z.optional(z.number()),
  }),
});
export type ReadinessChecks = z.infer<typeof readinessChecksSchema>;

/** GET /api/health/ready when this process may take traffic. */
export const readySchema = z.object({ status: z.literal('ok'), checks: readinessChecksSchema });

/** GET /api/health/ready's 503: the failure envelope, with the checks as `data` to show which one failed. */
export const notReadyEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errorType: z.enum(ERROR_TYPES),
  data: z.object({ status: z.literal('fail'), checks: readinessChecksSchema }),
});
