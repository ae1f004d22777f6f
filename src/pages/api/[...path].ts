import { AppError } from '~/server/errors';
import { handle } from '~/server/http/respond';
import { m } from '~/paraglide/messages.js';

// Public: an unknown API path is a 404 in the envelope for everyone.
export const ALL = handle(async () => {
  throw new AppError('NOT_FOUND', m.error_endpoint_not_found());
});
