import { parseJson } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { inLocale, rememberLocale } from '~/server/http/locale';
import { ok, handle } from '~/server/http/respond';
import { savePreferences } from '~/server/services/users';
import { m } from '~/paraglide/messages.js';
import { preferencesSchema, type Preferences } from '~/shared/locale';

/** The preferences in effect: the saved language, or the one this request resolved to. */
export const GET = handle(async (context) => {
  requireUser(context);
  const preferences: Preferences = { locale: context.locals.locale };
  return ok(preferences);
});

/** Saves them; the answer already speaks the chosen language. */
export const PUT = handle(async (context) => {
  const user = requireUser(context);
  const preferences = await parseJson(context, preferencesSchema);
  await savePreferences(user.id, preferences);
  rememberLocale(context.cookies, preferences.locale);
  return inLocale(preferences.locale, () => ok(preferences, { message: m.preferences_saved() }));
});
