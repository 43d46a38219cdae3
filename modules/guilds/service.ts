import { createGuildBoardService } from "./board/service";
import { createGuildCoreService, parseProblems } from "./core/service";
import { createGuildInvitationsService } from "./invitations/service";
import { createGuildMembersService } from "./members/service";
import { createGuildRecruitmentService } from "./recruitment/service";
import { createGuildRoomService } from "./room/service";
import type { GuildsDeps } from "./service-kit";

export type { Actor, GuildsDeps, Page } from "./service-kit";
export { parseProblems };

/** Each subdomain's service, built once per context (api.ts); the routes of a subdomain use its own. */
export function createGuildServices(deps: GuildsDeps) {
  return {
    core: createGuildCoreService(deps),
    members: createGuildMembersService(deps),
    invitations: createGuildInvitationsService(deps),
    recruitment: createGuildRecruitmentService(deps),
    board: createGuildBoardService(deps),
    room: createGuildRoomService(deps),
  };
}

/**
 * Every subdomain's functions in one object, for the callers that span them: the guild room and its socket events
 * (chat, standing, the admin actions of core, members and invitations), the guild game and the tests.
 */
export function mergeGuildServices(parts: GuildServices) {
  const { core, members, invitations, recruitment, board, room } = parts;
  // A name in two subdomains would silently shadow one of them here.
  const seen = new Set<string>();
  for (const name of Object.values(parts).flatMap(Object.keys)) {
    if (seen.has(name)) throw new Error(`guilds: ${name} is in two subdomain services`);
    seen.add(name);
  }
  return { ...core, ...members, ...invitations, ...recruitment, ...board, ...room };
}
export type GuildServices = ReturnType<typeof createGuildServices>;
export type GuildsService = ReturnType<typeof mergeGuildServices>;
