import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { rememberLocale } from '~/server/http/locale-cookie';
import { inLocale } from '~/server/locale';
import { ok, handle } from '~/server/http/respond';
import { readPreferences, savePreferences } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { preferencesChangeSchema, preferencesSchema } from '~/shared/preferences';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok(await readPreferences(context.locals.portal, user.id, context.locals.locale));
});

/** Changes the named preferences; the answer already speaks the language chosen. */
export const PUT = handle(async (context) => {
  const user = requireUser(context);
  const change = await parseJson(context, preferencesChangeSchema);
  const preferences = await savePreferences(
    context.locals.portal,
    user.id,
    change,
    context.locals.locale,
  );
  if (change.locale)
    rememberLocale(context.cookies, change.locale, context.locals.portal.config.isHttps);
  return inLocale(preferences.locale, () => ok(preferences, { message: m.preferences_saved() }));
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read your preferences',
    description: 'The language and whether status e-mails are on.',
    access: 'signed-in',
    answer: { status: 200, body: okEnvelope(preferencesSchema) },
  },
  PUT: {
    summary: 'Change your preferences',
    description:
      'Changes the preferences named, at least one; the rest stay. The answer speaks the language chosen.',
    access: 'signed-in',
    body: preferencesChangeSchema,
    answer: { status: 200, body: okEnvelope(preferencesSchema) },
  },
});
