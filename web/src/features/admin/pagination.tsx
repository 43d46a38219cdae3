import { pageWindow } from "./format";

/** Previous / a window of up to 5 page numbers / next (spec part 2 §9). */
export function Pagination({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="admin-pager" aria-label={label}>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        onClick={() => onPage(page - 1)}
        disabled={page <= 1}
        aria-label="이전 페이지"
      >
        ‹
      </button>
      {pageWindow(page, totalPages).map((n) => (
        <button
          type="button"
          key={n}
          className={n === page ? "btn btn-primary btn-small" : "btn btn-ghost btn-small"}
          aria-current={n === page ? "page" : undefined}
          aria-label={`${n} 페이지`}
          onClick={() => onPage(n)}
        >
          {n}
        </button>
      ))}
      <button
        type="button"
        className="btn btn-ghost btn-small"
        onClick={() => onPage(page + 1)}
        disabled={page >= totalPages}
        aria-label="다음 페이지"
      >
        ›
      </button>
    </nav>
  );
}
