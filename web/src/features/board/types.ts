/** Wire shapes of the board API (modules/board/model.ts; spec part 2 §3 Post, Comment). */

export interface Author {
  id: number;
  username: string;
}

export interface Post {
  id: number;
  title: string;
  content: string;
  user_id: number;
  user: Author;
  view_count: number;
  comment_count: number;
  created_at: string;
  updated_at: string;
}

export interface PostList {
  items: Post[];
  total: number;
  total_pages: number;
  page: number;
  size: number;
}

export interface BoardComment {
  id: number;
  content: string;
  user_id: number;
  user: Author;
  post_id: number;
  parent_id: number | null;
  /** Replies of a top-level comment (one level only: a reply's list is always empty). */
  replies: BoardComment[];
  created_at: string;
  updated_at: string;
  /** A deleted comment kept because it still has replies; its content is 삭제된 댓글입니다. */
  is_deleted: boolean;
}

/** The list page's URL search params: /board?page=2&q=…&author=… (page 1 is left out of the address). */
export interface BoardSearch {
  page?: number;
  q?: string;
  author?: string;
}
