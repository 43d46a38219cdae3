/** Area: free board (issue 4). Replace this file's routes; keep the export name `boardRoutes`. */
import { createRoute } from "@tanstack/react-router";
import { ComingSoon } from "../features/shell/coming-soon";
import { rootRoute } from "./root";

const boardListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board",
  component: () => <ComingSoon title="자유게시판" />,
});
const boardWriteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/write",
  component: () => <ComingSoon title="글쓰기" />,
});
const boardEditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/edit/$postId",
  component: () => <ComingSoon title="글 수정" />,
});
const boardPostRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/board/$postId",
  component: () => <ComingSoon title="게시글" />,
});

export const boardRoutes = [boardListRoute, boardWriteRoute, boardEditRoute, boardPostRoute] as const;
