import { m } from '~/paraglide/messages.js';
import { attachmentResponse } from '~/server/http/attachments';
import { parseId, parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle } from '~/server/http/respond';
import { openAttachment } from '~/server/services/attachments';
import { attachmentQuerySchema } from '~/shared/attachments';
import { describeEndpoint, SHARED_FAILURES } from '~/server/http/api-description';
import { routeIdSchema } from '~/shared/route-id';

/** An attachment's bytes, or a photo's preview (`?size=thumb|large`), in the caller's scope; anyone else's is a 404. */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  const id = parseId(context.params.id, m.attachment_not_found);
  const { size } = parseQuery(context, attachmentQuerySchema);
  return attachmentResponse(
    await openAttachment(context.locals.portal, user, id, size ?? 'original'),
    context.request,
  );
});

export const openapi = describeEndpoint({
  GET: {
    summary: "Download a receipt's photo or document",
    description:
      'The file as the provider sent it (a document as an attachment, a photo inline), or a ' +
      "photo's WebP preview with `size=thumb` (phone-sized) or `size=large`. Kept by the portal " +
      'once fetched, so it is served while the provider is down.',
    access: 'signed-in',
    params: { id: routeIdSchema },
    query: attachmentQuerySchema,
    answer: {
      status: 200,
      mediaTypes: [
        'image/webp',
        'image/jpeg',
        'image/png',
        'application/pdf',
        'application/octet-stream',
      ],
      description: 'The file or the preview.',
    },
    alsoAnswers: { 304: 'Not Modified: the file is the one the If-None-Match header names.' },
    errors: { ...SHARED_FAILURES.providerDown },
  },
});
