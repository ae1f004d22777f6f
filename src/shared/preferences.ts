/**
 * A user's preferences (language and status e-mails, README.md "Languages" and "Status e-mails"):
 * one object, changed in parts.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { locales } from './locale';

export const preferencesSchema = z.object({
  locale: z.enum(locales, {
    error: () => m.preferences_locale_invalid({ languages: locales.join(', ') }),
  }),
  statusEmails: z.boolean({ error: () => m.preferences_status_emails_invalid() }),
});
export type Preferences = z.output<typeof preferencesSchema>;

/** A PUT names what it changes; the rest stays. It must name something. */
export const preferencesChangeSchema = z.partial(preferencesSchema).check(
  z.refine((change) => change.locale !== undefined || change.statusEmails !== undefined, {
    error: () => m.preferences_nothing_to_change(),
  }),
);
export type PreferencesChange = z.output<typeof preferencesChangeSchema>;

/** The language switcher's form: only the language. */
export const localeChoiceSchema = z.pick(preferencesSchema, { locale: true });
