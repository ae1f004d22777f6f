import { useSyncExternalStore } from 'react';
import { formatDate, formatDateTime } from '~/shared/format';

const neverChanges = () => () => {};

/** False while rendering on the server and while hydrating, true once the browser has taken over. */
export function useHydrated(): boolean {
  return useSyncExternalStore(neverChanges, () => true, () => false);
}

/**
 * A date in the browser's time zone. The server can only format in its own zone, so the element is
 * rendered afresh once hydrated instead of keeping the server's text.
 */
export function LocalDate({ value, withTime = false }: { value: string; withTime?: boolean }) {
  const hydrated = useHydrated();
  return (
    <time key={hydrated ? 'browser' : 'server'} dateTime={value} suppressHydrationWarning>
      {withTime ? formatDateTime(value) : formatDate(value)}
    </time>
  );
}
