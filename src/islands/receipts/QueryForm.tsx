/**
 * A GET form for /receipts carrying the list's query as hidden fields, all but the parts its own
 * controls set. Before the island hydrates (and without JavaScript at all) its buttons and selects
 * work as a page load of that URL; once hydrated, the controls' handlers answer in place instead.
 */
import type { FormHTMLAttributes, ReactNode } from 'react';
import { receiptQueryString } from '~/shared/receipt-query-string';
import type { ReceiptQuery } from '~/shared/receipts';

interface QueryFormProps extends FormHTMLAttributes<HTMLFormElement> {
  query: ReceiptQuery;
  /** The parts the form's own controls set, or that the URL leaves at their default (page 1). */
  omit: ReadonlyArray<keyof ReceiptQuery>;
  children: ReactNode;
}

export function QueryForm({ query, omit, children, ...form }: QueryFormProps) {
  const kept = Object.fromEntries(
    Object.entries(query).filter(([key]) => !omit.some((part) => part === key)),
  );
  const fields = [...new URLSearchParams(receiptQueryString(kept))];
  return (
    <form method="get" action="/receipts" {...form}>
      {fields.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}
