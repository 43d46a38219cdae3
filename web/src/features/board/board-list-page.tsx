/** /board?page=n — the free board list (spec part 2 §2 "Free board list", §8). */
import { getRouteApi, Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { type FormEvent, useEffect, useState } from "react";
import { useDocumentTitle } from "../../lib/title";
import { useWithoutBlocked } from "../moderation/blocks";
import { isAuthenticatedAtom } from "../session/atoms";
import { boardApi } from "./board-api";
import { BoardPager, CommentBadge, PostDate } from "./board-ui";
import { BOARD_TEXT } from "./messages";
import type { BoardSearch, Post, PostList } from "./types";

const route = getRouteApi("/board");

type ListState =
  | { status: "loading"; data: PostList | null }
  | { status: "ready"; data: PostList }
  | { status: "error"; data: null };

export function BoardListPage() {
  useDocumentTitle(BOARD_TEXT.title);
  const search = route.useSearch();
  const loggedIn = useAtomValue(isAuthenticatedAtom);
  const [state, setState] = useState<ListState>({ status: "loading", data: null });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry button's trigger
  useEffect(() => {
    const controller = new AbortController();
    // The previous page stays on screen (dimmed) while the next one loads.
    setState((prev) => ({ status: "loading", data: prev.data }));
    boardApi.list(search, controller.signal).then(
      (data) => setState({ status: "ready", data }),
      () => {
        if (!controller.signal.aborted) setState({ status: "error", data: null });
      },
    );
    return () => controller.abort();
  }, [search.page, search.q, search.author, attempt]);

  const filtered = Boolean(search.q || search.author);
  return (
    <section className="board-page">
      <header className="board-header">
        <div>
          <h1 className="page-title board-title">{BOARD_TEXT.title}</h1>
          <p className="muted board-subtitle">타자 이야기, 질문, 소소한 잡담까지 자유롭게 나눠요.</p>
        </div>
        {loggedIn && (
          <Link to="/board/write" className="btn btn-primary board-write-button">
            글쓰기
          </Link>
        )}
      </header>

      <SearchBar search={search} />

      {state.status === "error" ? (
        <div className="card board-state" role="alert">
          <p className="board-state-text">{BOARD_TEXT.listLoadFailed}</p>
          <button type="button" className="btn btn-ghost" onClick={() => setAttempt((n) => n + 1)}>
            다시 시도
          </button>
        </div>
      ) : state.data === null ? (
        <div className="card board-state" role="status">
          <p className="board-state-text muted">게시글을 불러오는 중...</p>
        </div>
      ) : (
        <div
          className={state.status === "loading" ? "board-list is-loading" : "board-list"}
          aria-busy={state.status === "loading"}
        >
          {filtered && (
            <p className="board-result-count muted" role="status">
              검색 결과 {state.data.total.toLocaleString("ko-KR")}건
            </p>
          )}
          {state.data.items.length === 0 ? (
            <EmptyList filtered={filtered} total={state.data.total} />
          ) : (
            <PostTable posts={state.data.items} />
          )}
          <BoardPager search={search} totalPages={state.data.total_pages} />
        </div>
      )}
    </section>
  );
}

function EmptyList({ filtered, total }: { filtered: boolean; total: number }) {
  if (filtered || total > 0) {
    return (
      <div className="card board-state">
        <p className="board-state-text">{filtered ? BOARD_TEXT.noResults : "이 페이지에는 게시글이 없습니다."}</p>
        <Link to="/board" search={{}} className="btn btn-ghost">
          {filtered ? "전체 목록 보기" : "첫 페이지로"}
        </Link>
      </div>
    );
  }
  return (
    <div className="card board-state board-empty">
      <p className="board-state-text">{BOARD_TEXT.empty}</p>
      <Link to="/board/write" className="btn btn-primary">
        {BOARD_TEXT.writeFirst}
      </Link>
    </div>
  );
}

/** The page's posts; a blocked member's are left out (moderation's blocks). */
function PostTable({ posts }: { posts: Post[] }) {
  const withoutBlocked = useWithoutBlocked();
  return (
    <table className="card board-table">
      <caption className="sr-only">게시글 목록</caption>
      <thead>
        <tr>
          <th scope="col" className="col-number">
            번호
          </th>
          <th scope="col" className="col-title">
            제목
          </th>
          <th scope="col" className="col-author">
            작성자
          </th>
          <th scope="col" className="col-date">
            작성일
          </th>
          <th scope="col" className="col-views">
            조회
          </th>
        </tr>
      </thead>
      <tbody>
        {withoutBlocked(posts, (post) => post.user_id).map((post) => (
          <tr key={post.id} className="board-row">
            <td className="col-number">{post.id}</td>
            <td className="col-title">
              <Link to="/board/$postId" params={{ postId: String(post.id) }} className="board-row-link">
                <span className="board-row-title">{post.title}</span>
              </Link>
              <CommentBadge count={post.comment_count} />
            </td>
            <td className="col-author">{post.user.username}</td>
            <td className="col-date">
              <PostDate value={post.created_at} />
            </td>
            <td className="col-views">
              <span className="board-label-mobile">조회 </span>
              {post.view_count.toLocaleString("ko-KR")}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type SearchField = "q" | "author";

/** Title/content or author search, kept in the address (?q=… or ?author=…) so results can be shared. */
function SearchBar({ search }: { search: BoardSearch }) {
  const navigate = route.useNavigate();
  const [field, setField] = useState<SearchField>(search.author && !search.q ? "author" : "q");
  const [text, setText] = useState(search.q ?? search.author ?? "");

  useEffect(() => {
    setField(search.author && !search.q ? "author" : "q");
    setText(search.q ?? search.author ?? "");
  }, [search.q, search.author]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const words = text.trim();
    void navigate({ search: words ? { [field]: words } : {} });
  };

  return (
    <form className="board-search" onSubmit={submit} aria-label="게시글 검색">
      <label className="sr-only" htmlFor="board-search-field">
        검색 대상
      </label>
      <select
        id="board-search-field"
        className="input board-search-field"
        value={field}
        onChange={(e) => setField(e.target.value as SearchField)}
      >
        <option value="q">제목+내용</option>
        <option value="author">작성자</option>
      </select>
      <label className="sr-only" htmlFor="board-search-text">
        검색어
      </label>
      <input
        id="board-search-text"
        className="input board-search-text"
        type="search"
        placeholder={field === "author" ? "작성자 이름" : "제목·내용 검색"}
        value={text}
        maxLength={field === "author" ? 50 : 100}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit" className="btn btn-ghost board-search-button">
        검색
      </button>
      {(search.q || search.author) && (
        <Link to="/board" search={{}} className="board-search-reset">
          초기화
        </Link>
      )}
    </form>
  );
}
