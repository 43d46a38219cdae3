import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { loginRequired } from "../kernel/http";
import { assertCleanText, assertMaySpeak, textsOf } from "../kernel/speech";
import { writeLimits } from "../kernel/write-limits";
import { GUILD_MSG } from "./rules";
import type { Actor } from "./service-kit";

/**
 * What every subdomain's routes share: one instance shape (all under `/guilds`, tag `guilds`, the write limits),
 * the caller as an `Actor`, paging defaults and the documented refusals, so the OpenAPI document reads as one
 * module whichever folder a route lives in.
 */

export const bearer = [{ bearerAuth: [] }];
export const GUILD_NOT_FOUND = GUILD_MSG.guildNotFound;

/**
 * The 403 `detail`s of a route of one guild, taken from the texts the services send (`requireRole`): a non-member's,
 * then a member's without the role. A route that refuses more (an author check, a kick's rules) adds its texts.
 */
export const MEMBERS_ONLY = [GUILD_MSG.notMember] as const;
export const ADMINS_ONLY = [GUILD_MSG.notMember, GUILD_MSG.adminOnly] as const;
export const STAFF_ONLY = [GUILD_MSG.notMember, GUILD_MSG.staffOnly] as const;

/** A 403's description: each `detail` the route may send, word for word and quoted, so a client can match it. */
export const refusalsText = (refusals: readonly string[]) => refusals.map((detail) => `"${detail}"`).join(" 또는 ");

/** A route of one guild: the login guard, the service's refusals (403, every `detail`) and its guild lookup (404). */
export const inGuild = (refusals: readonly string[], notFound: string = GUILD_NOT_FOUND) =>
  ({ ...loginRequired(refusalsText(refusals)), 404: notFound, 422: true }) as const;

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

/**
 * The caller of a write others read (a post, a comment): a muted member, and a text of the body holding a listed
 * word, are refused (kernel speech.ts).
 */
export function writerOf(ctx: ModuleContext) {
  const actor = actorOf(ctx);
  return async (headers: Record<string, string | undefined>, body: object): Promise<Actor> => {
    const caller = await actor(headers);
    assertMaySpeak(ctx, caller.id, "post");
    await assertCleanText(ctx, "post", textsOf(body));
    return caller;
  };
}

/** One subdomain's routes instance, named `guilds.<subdomain>.routes`; the module's index composes them. */
export const guildRoutes = (ctx: ModuleContext, subdomain: string) =>
  new Elysia({ name: `guilds.${subdomain}.routes`, prefix: "/guilds", detail: { tags: ["guilds"] } }).use(
    writeLimits(ctx),
  );
