/** The id in a route's path (`/api/receipts/{id}`), as the endpoints parse it (parseId in src/server/http/body.ts). */
import * as z from 'zod/mini';

/** A positive whole number in 1 to 15 digits: anything else names nothing. */
export const routeIdSchema = z.pipe(
  z.string().check(z.regex(/^(?=\d{1,15}$)0*[1-9]\d*$/)),
  z.transform(Number),
);
