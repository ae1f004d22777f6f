import { useSyncExternalStore } from 'react';
import { formatTokenDateTime } from '~/shared/tokens';

const neverChanges = () => () => {};

/**
 * A date-time in the browser's time zone ('Unknown' without one). The server can only format in its
 * own zone, so the text is rendered afresh once hydrated instead of keeping the server's.
 */
export function LocalDateTime({ value }: { value: string | null }) {
  const hydrated = useSyncExternalStore(neverChanges, () => true, () => false);
  if (!value) return <>Unknown</>;
  return (
    <time key={hydrated ? 'browser' : 'server'} dateTime={value} suppressHydrationWarning>
      {formatTokenDateTime(value)}
    </time>
  );
}
