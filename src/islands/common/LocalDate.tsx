import { formatDate, formatDateTime } from '~/shared/format';
import { useHydrated } from './use-hydrated';

/**
 * A date in the browser's time zone. The server can only format in its own zone, so the element is
 * rendered afresh once hydrated instead of keeping the server's text; until an island hydrates, the
 * page's script rewrites it by its `data-local` (AppShell.astro).
 */
export function LocalDate({ value, withTime = false }: { value: string; withTime?: boolean }) {
  const hydrated = useHydrated();
  return (
    <time
      key={hydrated ? 'browser' : 'server'}
      dateTime={value}
      data-local={withTime ? 'date-time' : 'date'}
      suppressHydrationWarning
    >
      {withTime ? formatDateTime(value) : formatDate(value)}
    </time>
  );
}
