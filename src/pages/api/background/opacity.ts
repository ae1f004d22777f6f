import { parseJson } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { setCardOpacity } from '~/server/services/branding';
import { BACKGROUND_TEXTS, opacityPayloadSchema } from '~/shared/branding';

export const PUT = handle(async (context) => {
  requireRole(context, 'admin');
  const { opacity } = await parseJson(context, opacityPayloadSchema);
  return ok(await setCardOpacity(opacity), { message: BACKGROUND_TEXTS.opacityUpdated });
});
