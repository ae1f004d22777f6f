/** GET /api/config: what the browser may show (SHOW_LOCATIONS: the Locations page). */
import * as z from 'zod/mini';

export const portalSettingsSchema = z.object({ showLocations: z.boolean() });
