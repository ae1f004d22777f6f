/**
 * The limits of the receipt filters and the tracking rule's message: one source for the filter form
 * and the API schema.
 */
import { m } from '~/paraglide/messages.js';
import { TRACKING_NUMBER_MIN } from './constants';
import { formatCount } from './format';

export const SEARCH_MAX_LENGTH = 100;
export const TRACKING_NUMBER_MAX = 64;
/** The tracking rule, as the filter and the API say it. */
export const trackingNumberMessage = () =>
  m.receipts_tracking_number_too_short({ min: formatCount(TRACKING_NUMBER_MIN) });
