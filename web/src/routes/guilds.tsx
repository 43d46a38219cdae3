/** Area: guilds (issue 3). Replace this file's routes; keep the export name `guildsRoutes`. */
import { createRoute } from "@tanstack/react-router";
import { ComingSoon } from "../features/shell/coming-soon";
import { requireLogin } from "./guards";
import { rootRoute } from "./root";

const GUILD_LOGIN = "길드 페이지는 로그인이 필요합니다.";

const guildsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds",
  component: () => <ComingSoon title="길드" />,
});
const guildCreateRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/create",
  beforeLoad: requireLogin(GUILD_LOGIN),
  component: () => <ComingSoon title="길드 만들기" />,
});
const myGuildRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/my",
  beforeLoad: requireLogin(GUILD_LOGIN),
  component: () => <ComingSoon title="내 길드" />,
});
const recruitmentRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/recruitment",
  component: () => <ComingSoon title="길드원 모집" />,
});
const recruitmentPostRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/recruitment/$id",
  component: () => <ComingSoon title="모집 글" />,
});
const guildRoomRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/$guildId/room",
  beforeLoad: requireLogin(GUILD_LOGIN),
  component: () => <ComingSoon title="길드 방" />,
});
const guildBoardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/guilds/$guildId/board",
  beforeLoad: requireLogin(GUILD_LOGIN),
  component: () => <ComingSoon title="길드 게시판" />,
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
