/** Under the table: 'Showing X to Y of Z results', the Cached badge, processing time and paging. */
import { m } from '~/paraglide/messages.js';
import { formatCount } from '~/shared/format';
import type { ListMeta, Pagination } from '~/shared/receipts';

interface ListFooterProps {
  pagination: Pagination;
  meta: ListMeta;
  shown: number;
  onPage: (page: number) => void;
}

export function ListFooter({ pagination, meta, shown, onPage }: ListFooterProps) {
  const { currentPage, itemsPerPage, totalItems, totalPages, hasPrevPage, hasNextPage } = pagination;
  const first = (currentPage - 1) * itemsPerPage + 1;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-base-content/10 px-4 py-4 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span>{m.receipts_showing({ from: formatCount(first), to: formatCount(first + shown - 1), total: formatCount(totalItems) })}</span>
        {meta.cached && <span className="badge badge-success badge-soft badge-sm">{m.receipts_cached()}</span>}
        <span className="opacity-60" title={m.receipts_processing_time()}>
          {formatCount(meta.processingTime)} ms
        </span>
      </div>
      <nav className="flex items-center gap-2" aria-label={m.receipts_pagination()}>
        <button type="button" className="btn btn-sm" disabled={!hasPrevPage} onClick={() => onPage(currentPage - 1)}>
          {m.receipts_previous()}
        </button>
        {totalPages > 1 && (
          <span className="px-1 whitespace-nowrap">{m.receipts_page_of({ page: formatCount(currentPage), pages: formatCount(totalPages) })}</span>
        )}
        <button type="button" className="btn btn-sm" disabled={!hasNextPage} onClick={() => onPage(currentPage + 1)}>
          {m.receipts_next()}
        </button>
      </nav>
    </div>
  );
}
