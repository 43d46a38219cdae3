/** Area: rankings (issue 5). Replace this file's routes; keep the export name `rankingRoutes`. */
import { createRoute } from "@tanstack/react-router";
import { ComingSoon } from "../features/shell/coming-soon";
import { rootRoute } from "./root";

const rankingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/ranking",
  component: () => <ComingSoon title="랭킹" />,
});

export const rankingRoutes = [rankingRoute] as const;
