/** How each dashboard figure is written, on the server and by the refresh script alike. */
import { m } from '~/paraglide/messages.js';
import { formatCount, formatVolume, formatWeight } from '~/shared/format';

export const FIGURE_FORMATS = { count: formatCount, weight: formatWeight, volume: formatVolume };
export type FigureFormat = keyof typeof FIGURE_FORMATS;

/** 'N receipts' after a ranked name. */
export const receiptCount = (count: number) =>
  m.dashboard_receipt_count({ count: formatCount(count) });
