/** Area: 1:1 typing duel (spec part 2 §2). The page lives in features/duel and loads when first visited. */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { isMemberSid } from "../features/duel/challenge-link";
import "../features/duel/duel.css";
import { rootRoute } from "./root";

const duelRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/duel",
  // A challenge link (`?challenge=u_12`) opens the page with a challenge to that member prepared; anything else goes.
  validateSearch: (search: Record<string, unknown>): { challenge?: string } =>
    isMemberSid(search.challenge) ? { challenge: search.challenge } : {},
  component: lazyRouteComponent(() => import("../features/duel/duel-page"), "DuelPage"),
});

export const duelRoutes = [duelRoute] as const;
