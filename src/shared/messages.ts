/** Texts shown by more than one screen (spec sections 2 and 8). */
import { SERVER_BUSY_WAIT_MINUTES } from './constants';

/** The external-API error panel of the dashboard and the receipts list. */
export const SERVER_BUSY_TITLE = 'Server is Busy';
export const SERVER_BUSY_TEXT = `The server is busy right now. If this message is still shown after ${SERVER_BUSY_WAIT_MINUTES} minutes, please contact the company.`;
