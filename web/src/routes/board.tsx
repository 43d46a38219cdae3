/**
 * Area: free board (issue 4, spec part 2 §2). Pages live in features/board and load when first visited (lazy
 * route components); this file only declares the routes.
 */
import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
import "../features/board/board.css";
import { BOARD_TEXT } from "../features/board/messages";
import { parseBoardSearch } from "../features/board/pager";
import { isAuthenticatedAtom } from "../features/session/atoms";
import { tokens } from "../lib/tokens";
import { loginState } from "./guards";
import { rootRoute } from "./root";

const boardListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board",
  validateSearch: parseBoardSearch,
  component: lazyRouteComponent(() => import("../features/board/board-list-page"), "BoardListPage"),
});

const boardWriteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/write",
  // Without any stored token there is nothing to renew: straight to /login. With one, the page first tries to
  // reload the user (spec part 2 §2 "Board write") and explains a failure itself.
  beforeLoad: ({ context, location }) => {
    if (!context.store.get(isAuthenticatedAtom) && !tokens.access()) {
      // (When the server just ended the session, /login says why instead, and comes back here after it.)
      throw redirect({ to: "/login", state: loginState(context, location, BOARD_TEXT.loginToWrite) as never });
    }
  },
  component: lazyRouteComponent(() => import("../features/board/board-write-page"), "BoardWritePage"),
});

const boardEditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/edit/$postId",
  component: lazyRouteComponent(() => import("../features/board/board-edit-page"), "BoardEditPage"),
});

const boardPostRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/$postId",
  component: lazyRouteComponent(() => import("../features/board/board-post-page"), "BoardPostPage"),
});

export const boardRoutes = [boardListRoute, boardWriteRoute, boardEditRoute, boardPostRoute] as const;
