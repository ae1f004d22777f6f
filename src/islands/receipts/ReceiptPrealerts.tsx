/** The customer's pre-alerts of a receipt's packages in its details modal: what they said, and the invoice on file. */
import { m } from '~/paraglide/messages.js';
import { invoicePath, prealertFacts } from '~/shared/prealert-view';
import type { ReceiptPrealert } from '~/shared/prealerts';

export function ReceiptPrealerts({ prealerts }: { prealerts: ReceiptPrealert[] }) {
  if (prealerts.length === 0) return null;
  return (
    <>
      <h3 className="mt-4 mb-2 font-semibold">{m.prealert_receipt_heading()}</h3>
      <ul className="flex flex-col gap-2" aria-label={m.prealert_receipt_heading()}>
        {prealerts.map((prealert) => (
          <li key={prealert.id} className="rounded-box border border-base-content/10 p-3 text-sm">
            <dl className="grid grid-cols-1 gap-2 md:grid-cols-2">
              {prealertFacts(prealert).map((fact) => (
                <div key={fact.label} className="min-w-0">
                  <dt className="opacity-60">{fact.label}</dt>
                  <dd className="font-medium break-words">{fact.text}</dd>
                </div>
              ))}
            </dl>
            {prealert.invoice ? (
              <p className="mt-2">
                {m.prealert_invoice_on_file()}:{' '}
                <a className="link" href={invoicePath(prealert.id)} download>
                  {m.prealert_download_invoice()}
                </a>
              </p>
            ) : (
              <p className="mt-2 opacity-70">{m.prealert_no_invoice_on_file()}</p>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
