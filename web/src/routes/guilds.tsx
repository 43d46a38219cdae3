/**
 * Area: guilds (issue 12, spec part 1 §2). Pages live in features/guilds and load when first visited (lazy route
 * components); this file only declares the routes. Guild pages need a login, except the public lists.
 */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
// Styles load with the shell: Bun does not load the CSS of a lazily imported chunk.
import "../features/guilds/guilds.css";
import { watchSearch } from "../ui/watch-search";
import { requireLogin } from "./guards";
import { rootRoute } from "./root";

const GUILD_LOGIN = "길드 페이지는 로그인이 필요합니다.";

const guildsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds",
  component: lazyRouteComponent(() => import("../features/guilds/guild-list-page"), "GuildListPage"),
});
const guildCreateRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/create",
  beforeLoad: requireLogin(GUILD_LOGIN),
  component: lazyRouteComponent(() => import("../features/guilds/guild-create-page"), "GuildCreatePage"),
});
const myGuildRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/my",
  beforeLoad: requireLogin(GUILD_LOGIN),
  component: lazyRouteComponent(() => import("../features/guilds/my-guild-page"), "MyGuildPage"),
});
const recruitmentRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/recruitment",
  component: lazyRouteComponent(() => import("../features/guilds/recruitment-list-page"), "RecruitmentListPage"),
});
const recruitmentPostRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/recruitment/$id",
  component: lazyRouteComponent(() => import("../features/guilds/recruitment-post-page"), "RecruitmentPostPage"),
});
/** `?watch=1`: enter the room watching its game (관전하기 sets it, 참가하기 drops it). */
const guildRoomRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/$guildId/room",
  validateSearch: watchSearch,
  beforeLoad: requireLogin(GUILD_LOGIN),
  component: lazyRouteComponent(() => import("../features/guilds/guild-room-page"), "GuildRoomPage"),
});
const guildBoardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/$guildId/board",
  beforeLoad: requireLogin(GUILD_LOGIN),
  component: lazyRouteComponent(() => import("../features/guilds/guild-board-page"), "GuildBoardPage"),
});

export const guildsRoutes = [
  guildsRoute,
  guildCreateRoute,
  myGuildRoute,
  recruitmentRoute,
  recruitmentPostRoute,
  guildRoomRoute,
  guildBoardRoute,
] as const;
