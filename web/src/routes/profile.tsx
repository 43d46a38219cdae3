/** Area: profile (spec part 2 §2 "Profile"). The page lives in features/profile and loads when first visited. */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import "../features/profile/profile.css";
import { requireLogin } from "./guards";
import { rootRoute } from "./root";

const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/profile",
  beforeLoad: requireLogin("프로필을 보려면 로그인이 필요합니다."),
  component: lazyRouteComponent(() => import("../features/profile/profile-page"), "ProfilePage"),
});

export const profileRoutes = [profileRoute] as const;
