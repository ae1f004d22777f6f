/**
 * What pre-alerts show, in the reader's language: carriers' names, statuses, dollars and the facts of
 * one pre-alert. The pages (Astro) and the receipt's details modal (React) both render these, so they
 * show the same; it carries no validation, so an island that shows pre-alerts stays small.
 */
import { m } from '~/paraglide/messages.js';
import { getLocale } from '~/paraglide/runtime.js';

export const CARRIERS = ['ups', 'fedex', 'usps', 'dhl', 'amazon', 'other'] as const;
export type Carrier = (typeof CARRIERS)[number];

/** Carriers are brands, named the same in every language; only "other" is a word. */
export function carrierLabel(carrier: string): string {
  switch (carrier) {
    case 'ups':
      return 'UPS';
    case 'fedex':
      return 'FedEx';
    case 'usps':
      return 'USPS';
    case 'dhl':
      return 'DHL';
    case 'amazon':
      return 'Amazon Logistics';
    default:
      return m.prealert_carrier_other();
  }
}

export const PREALERT_STATUSES = ['expected', 'received'] as const;
export type PrealertStatus = (typeof PREALERT_STATUSES)[number];

export const prealertStatusLabel = (status: PrealertStatus) =>
  status === 'received' ? m.prealert_status_received() : m.prealert_status_expected();

/** An amount in US dollars as the reader writes numbers: '$1,234.50' (en), 'US$ 1.234,50' (nl). */
export function formatUsd(cents: number): string {
  return new Intl.NumberFormat(getLocale(), { style: 'currency', currency: 'USD' }).format(
    cents / 100,
  );
}

/** A value as the form shows it for editing, in the reader's decimal mark: '49.99' or '49,99'. */
export function declaredValueText(cents: number): string {
  const text = (cents / 100).toFixed(2);
  return getLocale() === 'nl' ? text.replace('.', ',') : text;
}

/** Where a pre-alert's invoice downloads, for whoever may see the pre-alert. */
export const invoicePath = (prealertId: number) => `/api/prealerts/${prealertId}/invoice`;

/** One fact of a pre-alert as the pages and the receipt's details show it, in the reader's language. */
export interface PrealertFact {
  label: string;
  text: string;
}

/** What a pre-alert says of its package: the same on the pre-alerts page, the admin's and the receipt's. */
export function prealertFacts(prealert: {
  carrier: string;
  trackingNumber: string;
  shipper: string;
  description: string;
  declaredValue: number;
}): PrealertFact[] {
  return [
    { label: m.prealert_field_carrier(), text: carrierLabel(prealert.carrier) },
    { label: m.prealert_field_tracking(), text: prealert.trackingNumber },
    { label: m.prealert_field_shipper(), text: prealert.shipper },
    { label: m.prealert_field_description(), text: prealert.description },
    { label: m.prealert_field_value(), text: formatUsd(Math.round(prealert.declaredValue * 100)) },
  ];
}
