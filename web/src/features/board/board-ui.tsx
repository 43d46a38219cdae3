/** Small pieces shared by the board pages. */
import { Link } from "@tanstack/react-router";
import { isApiError } from "../../lib/api";
import { formatDateTime, pageWindow } from "../../lib/format";
import { BOARD_TEXT } from "./messages";
import { withPage } from "./pager";
import type { BoardSearch, Post } from "./types";

/** A route's `$postId` as a post id, or null when it cannot be one (then the post is simply not found). */
export function parsePostId(param: string): number | null {
  return /^[1-9]\d{0,15}$/.test(param) && Number.isSafeInteger(Number(param)) ? Number(param) : null;
}

/** Edited noticeably after it was written (the server sets both times on creation). */
export function wasEdited(item: { created_at: string; updated_at: string }): boolean {
  return Date.parse(item.updated_at) - Date.parse(item.created_at) > 1000;
}

/** The spec's alert text, with the server's reason on a second line when it gave one (e.g. 답글에는 답글을…). */
export function alertFailure(message: string, error: unknown) {
  // A refused session already went to /login through the API client; an alert on top would only confuse.
  if (isApiError(error) && error.status === 401) return;
  const reason = isApiError(error) && error.detail && error.detail !== message ? `\n${error.detail}` : "";
  window.alert(`${message}${reason}`);
}

export function PostDate({ value, edited = false }: { value: string; edited?: boolean }) {
  return (
    <span className="board-date">
      <time dateTime={value}>{formatDateTime(value)}</time>
      {edited && <span className="board-edited"> (수정됨)</span>}
    </span>
  );
}

export function CommentBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="board-badge" title={`댓글 ${count}개`}>
      <span className="sr-only">댓글 </span>
      {count}
      <span className="sr-only">개</span>
    </span>
  );
}

export type PostLoad =
  | { status: "loading" }
  | { status: "ready"; post: Post }
  | { status: "missing" }
  | { status: "error" };

/** What a post page shows until its post is there: the loading line, not-found, or the load failure. */
export function PostPending({ state }: { state: Exclude<PostLoad, { status: "ready" }> }) {
  if (state.status === "missing") return <PostMissing />;
  if (state.status === "error") return <PostMissing failed />;
  return (
    <section className="board-page board-narrow">
      <p className="card board-state muted" role="status">
        게시글을 불러오는 중...
      </p>
    </section>
  );
}

/** 게시글을 찾을 수 없습니다. (or the load failure text) with a way back to the list. */
export function PostMissing({ failed = false }: { failed?: boolean }) {
  return (
    <section className="board-page board-missing card" role="alert">
      <h1 className="board-missing-title">{failed ? BOARD_TEXT.listLoadFailed : BOARD_TEXT.postNotFound}</h1>
      <p className="muted">{failed ? "잠시 후 다시 시도해주세요." : "삭제되었거나 주소가 잘못되었을 수 있습니다."}</p>
      <Link to="/board" search={{}} className="btn btn-primary">
        목록으로 돌아가기
      </Link>
    </section>
  );
}

/** Previous · a window of up to 5 page numbers · next, as links so every page has its own address. */
export function BoardPager({ search, totalPages }: { search: BoardSearch; totalPages: number }) {
  if (totalPages <= 1) return null;
  const current = search.page ?? 1;
  const page = Math.min(current, totalPages);
  const to = (n: number) => withPage(search, n);
  return (
    <nav className="board-pager" aria-label="게시판 페이지">
      {page > 1 ? (
        <Link to="/board" search={to(page - 1)} className="board-pager-item" aria-label="이전 페이지">
          ‹
        </Link>
      ) : (
        <span className="board-pager-item" aria-hidden="true" data-disabled="true">
          ‹
        </span>
      )}
      {pageWindow(page, totalPages).map((n) => (
        <Link
          key={n}
          to="/board"
          search={to(n)}
          className={n === current ? "board-pager-item current" : "board-pager-item"}
          aria-current={n === current ? "page" : undefined}
          aria-label={`${n} 페이지`}
        >
          {n}
        </Link>
      ))}
      {page < totalPages ? (
        <Link to="/board" search={to(page + 1)} className="board-pager-item" aria-label="다음 페이지">
          ›
        </Link>
      ) : (
        <span className="board-pager-item" aria-hidden="true" data-disabled="true">
          ›
        </span>
      )}
    </nav>
  );
}
