import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { loginRequired } from "../kernel/http";
import { writeLimits } from "../kernel/write-limits";
import type { Actor } from "./service-kit";

/**
 * What every subdomain's routes share: one instance shape (all under `/guilds`, tag `guilds`, the write limits),
 * the caller as an `Actor`, paging defaults and the documented refusals, so the OpenAPI document reads as one
 * module whichever folder a route lives in.
 */

export const bearer = [{ bearerAuth: [] }];
export const GUILD_NOT_FOUND = "길드를 찾을 수 없습니다";
export const NOT_MEMBER = "이 길드의 회원이 아닙니다";
export const NOT_ADMIN = "이 길드의 관리자가 아닙니다";
export const NOT_STAFF = "이 길드의 관리자·부관리자가 아닙니다";

/** A route of one guild: the login guard, the service's role check (403) and its guild lookup (404). */
export const inGuild = (forbidden: string, notFound = GUILD_NOT_FOUND) =>
  ({ ...loginRequired(forbidden), 404: notFound, 422: true }) as const;

export const page = (query: { page?: number; size?: number }, size: number) => ({
  page: query.page ?? 1,
  size: query.size ?? size,
});

/** The logged-in caller of a request (401 otherwise), as the services take it. */
export function actorOf(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  return async (headers: Record<string, string | undefined>): Promise<Actor> => {
    const user = await guards.requireUser(headers);
    return { id: user.id, username: user.username };
  };
}

/** One subdomain's routes instance, named `guilds.<subdomain>.routes`; the module's index composes them. */
export const guildRoutes = (ctx: ModuleContext, subdomain: string) =>
  new Elysia({ name: `guilds.${subdomain}.routes`, prefix: "/guilds", detail: { tags: ["guilds"] } }).use(
    writeLimits(ctx),
  );
