/** Under the table: 'Showing X to Y of Z results', the Cached badge, processing time and paging. */
import type { MouseEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { formatCount } from '~/shared/format';
import type { ListMeta, Pagination, ReceiptQuery } from '~/shared/receipts';
import { QueryForm } from './QueryForm';

interface ListFooterProps {
  query: ReceiptQuery;
  pagination: Pagination;
  meta: ListMeta;
  shown: number;
  onPage: (page: number) => void;
}

export function ListFooter({ query, pagination, meta, shown, onPage }: ListFooterProps) {
  const { currentPage, itemsPerPage, totalItems, totalPages, hasPrevPage, hasNextPage } =
    pagination;
  const first = (currentPage - 1) * itemsPerPage + 1;
  // Submit buttons of a GET form (?page=N with the other parameters): a tap before hydration loads that page.
  const goTo = (page: number) => (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    onPage(page);
  };
  return (
    <div
      className={[
        'flex flex-wrap items-center justify-between gap-3',
        'border-t border-base-content/10 px-4 py-4 text-sm',
      ].join(' ')}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span>
          {m.receipts_showing({
            from: formatCount(first),
            to: formatCount(first + shown - 1),
            total: formatCount(totalItems),
          })}
        </span>
        {meta.cached && (
          <span className="badge badge-success badge-soft badge-sm">{m.receipts_cached()}</span>
        )}
        <span className="opacity-60" title={m.receipts_processing_time()}>
          {formatCount(meta.processingTime)} ms
        </span>
      </div>
      <nav aria-label={m.receipts_pagination()}>
        <QueryForm query={query} omit={['page']} className="flex items-center gap-2">
          <button
            type="submit"
            name="page"
            value={currentPage - 1}
            className="btn btn-sm"
            disabled={!hasPrevPage}
            onClick={goTo(currentPage - 1)}
          >
            {m.receipts_previous()}
          </button>
          {totalPages > 1 && (
            <span className="px-1 whitespace-nowrap">
              {m.receipts_page_of({
                page: formatCount(currentPage),
                pages: formatCount(totalPages),
              })}
            </span>
          )}
          <button
            type="submit"
            name="page"
            value={currentPage + 1}
            className="btn btn-sm"
            disabled={!hasNextPage}
            onClick={goTo(currentPage + 1)}
          >
            {m.receipts_next()}
          </button>
        </QueryForm>
      </nav>
    </div>
  );
}
