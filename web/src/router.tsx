/**
 * Code-based TanStack Router tree (file-based routing would need `tsr generate`; see stack-notes). Each product
 * area owns one file in ./routes that exports its routes; this file only assembles them.
 */
import { createRouter } from "@tanstack/react-router";
import type { AppHistoryState } from "./lib/navigation";
import { appStore } from "./lib/store";
import { adminRoutes } from "./routes/admin";
import { boardRoutes } from "./routes/board";
import { dailyRoutes } from "./routes/daily";
import { duelRoutes } from "./routes/duel";
import { guildsRoutes } from "./routes/guilds";
import { homeRoutes } from "./routes/home";
import { loginRoutes } from "./routes/login";
import { passwordForgotRoutes } from "./routes/password-forgot";
import { passwordResetRoutes } from "./routes/password-reset";
import { practiceRoutes } from "./routes/practice";
import { profileRoutes } from "./routes/profile";
import { rankingRoutes } from "./routes/ranking";
import { registerRoutes } from "./routes/register";
import { replayRoutes } from "./routes/replay";
import { roomsRoutes } from "./routes/rooms";
import { rootRoute } from "./routes/root";

const routeTree = rootRoute.addChildren([
  ...homeRoutes,
  ...loginRoutes,
  ...registerRoutes,
  ...passwordResetRoutes,
  ...passwordForgotRoutes,
  ...roomsRoutes,
  ...guildsRoutes,
  ...boardRoutes,
  ...duelRoutes,
  ...rankingRoutes,
  ...dailyRoutes,
  ...practiceRoutes,
  ...profileRoutes,
  ...replayRoutes,
  ...adminRoutes,
]);

export const router = createRouter({
  routeTree,
  context: { store: appStore },
  defaultPreload: false,
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

declare module "@tanstack/history" {
  interface HistoryState extends AppHistoryState {}
}
