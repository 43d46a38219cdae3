/** Area: home (issue 3, rooms). Replace this file's routes; keep the export name `homeRoutes`. */
import { createRoute } from "@tanstack/react-router";
import { ComingSoon } from "../features/shell/coming-soon";
import { rootRoute } from "./root";

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  component: () => (
    <ComingSoon home title="실시간 타자 방" description="방 목록은 준비 중입니다. 곧 함께 타자를 칠 수 있어요!" />
  ),
});

export const homeRoutes = [homeRoute] as const;
