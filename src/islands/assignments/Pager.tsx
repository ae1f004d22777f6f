/** Under the grid: 'Showing X to Y of Z consignees', Previous, numbered page buttons with ellipses, Next. */
import { m } from '~/paraglide/messages.js';
import { formatCount } from '~/shared/format';
import { pageButtons, type GridPage } from './grid';

interface PagerProps {
  shown: GridPage;
  total: number;
  onPage: (page: number) => void;
}

export function Pager({ shown, total, onPage }: PagerProps) {
  const { page, pageCount, first, last } = shown;
  return (
    <div
      className={[
        'flex flex-wrap items-center justify-between gap-3',
        'border-t border-base-content/10 px-4 py-4 text-sm',
      ].join(' ')}
    >
      <span>
        {m.assignments_showing({
          from: formatCount(first),
          to: formatCount(last),
          total: formatCount(total),
        })}
      </span>
      <nav className="flex flex-wrap items-center gap-1" aria-label={m.assignments_pagination()}>
        <button
          type="button"
          className="btn btn-sm"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          {m.assignments_previous()}
        </button>
        {pageButtons(page, pageCount).map((button, index) =>
          button === 'gap' ? (
            <span key={`gap-${index}`} className="px-1 opacity-60">
              …
            </span>
          ) : (
            <button
              key={button}
              type="button"
              className={`btn btn-sm btn-square ${button === page ? 'btn-primary' : 'btn-ghost'}`}
              aria-label={m.assignments_page({ page: formatCount(button) })}
              aria-current={button === page ? 'page' : undefined}
              onClick={() => onPage(button)}
            >
              {button}
            </button>
          ),
        )}
        <button
          type="button"
          className="btn btn-sm"
          disabled={page >= pageCount}
          onClick={() => onPage(page + 1)}
        >
          {m.assignments_next()}
        </button>
      </nav>
    </div>
  );
}
