/**
 * Area: profile (spec part 2 §2 "Profile") and the member's blocks. The pages live in features/profile and
 * features/moderation and load when first visited.
 */
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

/** The members one blocked, to unblock them (modules/moderation README "Blocks"), linked from the profile. */
const blocksRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/profile/blocks",
  beforeLoad: requireLogin("차단 목록을 보려면 로그인이 필요합니다."),
  component: lazyRouteComponent(() => import("../features/moderation/blocks-page"), "BlocksPage"),
});

export const profileRoutes = [profileRoute, blocksRoute] as const;
