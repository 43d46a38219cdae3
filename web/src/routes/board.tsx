/** Area: free board (issue 4, spec part 2 §2). Pages live in features/board; this file only declares the routes. */
import { createRoute, redirect } from "@tanstack/react-router";
import "../features/board/board.css";
import { BoardEditPage } from "../features/board/board-edit-page";
import { BoardListPage } from "../features/board/board-list-page";
import { BoardPostPage } from "../features/board/board-post-page";
import { BoardWritePage } from "../features/board/board-write-page";
import { BOARD_TEXT } from "../features/board/messages";
import { parseBoardSearch } from "../features/board/pager";
import { isAuthenticatedAtom } from "../features/session/atoms";
import { tokens } from "../lib/tokens";
import { rootRoute } from "./root";

const boardListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board",
  validateSearch: parseBoardSearch,
  component: BoardListPage,
});

const boardWriteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/write",
  // Without any stored token there is nothing to renew: straight to /login. With one, the page first tries to
  // reload the user (spec part 2 §2 "Board write") and explains a failure itself.
  beforeLoad: ({ context }) => {
    if (!context.store.get(isAuthenticatedAtom) && !tokens.access()) {
      throw redirect({ to: "/login", state: { loginMessage: BOARD_TEXT.loginToWrite } as never });
    }
  },
  component: BoardWritePage,
});

const boardEditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/edit/$postId",
  component: BoardEditPage,
});

const boardPostRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/$postId",
  component: BoardPostPage,
});

export const boardRoutes = [boardListRoute, boardWriteRoute, boardEditRoute, boardPostRoute] as const;
