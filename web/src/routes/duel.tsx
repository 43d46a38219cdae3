/** Area: 1:1 typing duel (issue 4). Replace this file's routes; keep the export name `duelRoutes`. */
import { createRoute } from "@tanstack/react-router";
import { ComingSoon } from "../features/shell/coming-soon";
import { rootRoute } from "./root";

const duelRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/duel",
  component: () => <ComingSoon title="1:1 타자 대결" />,
});

export const duelRoutes = [duelRoute] as const;
