import { parseQuery } from '~/server/http/body';
import { imageResponse } from '~/server/http/images';
import { handle } from '~/server/http/respond';
import { describeEndpoint } from '~/server/http/api-description';
import { VARIANT_CONTENT_TYPES } from '~/server/images/variants';
import * as z from 'zod/mini';
import { imageVersionQuerySchema } from '~/shared/api/branding';

// Public: the sign-in page shows the logo. One of its sizes, named as `112.webp`.
export const GET = handle(async (context) => {
  const { branding } = context.locals.portal;
  return imageResponse(
    await branding.openVariant(
      'logo',
      context.params.variant ?? '',
      parseQuery(context, imageVersionQuerySchema).v ?? null,
    ),
    'logo',
  );
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'One size of the logo',
    description: 'The sizes pages show (the sign-in page too), never the original upload.',
    access: 'public',
    params: { variant: z.string() },
    query: imageVersionQuerySchema,
    queryNotes: {
      v: {
        description:
          "The upload's version: under the current one the answer may be kept for a year.",
      },
    },
    answer: {
      status: 200,
      mediaTypes: Object.values(VARIANT_CONTENT_TYPES),
      description: 'The image.',
    },
    errors: {
      404: 'No logo is set, or it has no size of that name (`<width>.<format>`, such as `112.webp`).',
    },
  },
});
