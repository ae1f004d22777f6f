/** Texts shown by more than one screen, built when shown: in the reader's language. */
import { m } from '~/paraglide/messages.js';
import { SERVER_BUSY_WAIT_MINUTES } from './constants';
import { formatCount } from './format';

/** The external-API error panel of the dashboard and the receipts list. */
export const serverBusyTitle = () => m.common_server_busy_title();
export const serverBusyText = () =>
  m.common_server_busy_text({ minutes: formatCount(SERVER_BUSY_WAIT_MINUTES) });
