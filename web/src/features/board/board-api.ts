/** The board calls of spec part 2 §7, through the app's one HTTP client (bearer token and retry rule). */

import { BOARD_PAGE_SIZE } from "../../../../modules/board/rules";
import { api, type RequestOptions } from "../../lib/api";
import type { BoardComment, BoardSearch, Post, PostList } from "./types";

const base = "/api/board";

export interface PostInput {
  title: string;
  content: string;
}

export const boardApi = {
  list: (search: BoardSearch, signal?: AbortSignal) =>
    api.get<PostList>(`${base}/`, {
      query: {
        page: search.page ?? 1,
        size: BOARD_PAGE_SIZE,
        sort_by: "created_at",
        order: "desc",
        q: search.q || undefined,
        author: search.author || undefined,
      },
      signal,
    }),
  get: (id: number, signal?: AbortSignal) => api.get<Post>(`${base}/${id}`, { signal }),
  view: (id: number) => api.post<{ id: number; view_count: number; counted: boolean }>(`${base}/${id}/view`),
  /** The write page reports a refused session itself (spec part 2 §8), so no automatic trip to /login. */
  create: (input: PostInput, options?: Pick<RequestOptions, "redirectOnAuthFailure">) =>
    api.post<Post>(`${base}/`, input, options),
  update: (id: number, input: PostInput) => api.put<Post>(`${base}/${id}`, input),
  remove: (id: number) => api.delete(`${base}/${id}`),
  comments: (postId: number, signal?: AbortSignal) => api.get<BoardComment[]>(`${base}/${postId}/comments`, { signal }),
  addComment: (postId: number, content: string, parentId: number | null) =>
    api.post<BoardComment>(`${base}/${postId}/comments`, { content, parent_id: parentId }),
  editComment: (id: number, content: string) => api.put<BoardComment>(`${base}/comments/${id}`, { content }),
  removeComment: (id: number) => api.delete(`${base}/comments/${id}`),
};
