/**
 * The one application error: what went wrong, in the reader's language, and the `errorType` of the
 * API's envelope with the HTTP status it is answered with (the API's contract, docs/api.md).
 */
import type { ErrorType } from '~/shared/envelope';
import type { FieldIssue } from '~/shared/validation';

const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  AUTHENTICATION_ERROR: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  EXTERNAL_API_ERROR: 503,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorType, number>;

export type { ErrorType } from '~/shared/envelope';

export interface AppErrorOptions {
  status?: number;
  details?: FieldIssue[];
  retryAfter?: number;
}

export class AppError extends Error {
  readonly status: number;
  readonly details: FieldIssue[] | undefined;
  readonly retryAfter: number | undefined;

  constructor(
    readonly errorType: ErrorType,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = options.status ?? ERROR_STATUS[errorType];
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}
