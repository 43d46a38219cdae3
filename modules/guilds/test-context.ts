import { users as sqliteUsers } from "../../db/core/schema";
import { users as pgUsers } from "../../db/core/schema.pg";
import { storeDb, tablesFor } from "../../db/store";
import { createTestContext } from "../../db/testing";
import { FakeClock } from "../kernel/clock";
import { defineModule } from "../kernel/define-module";
import { guildsApi } from "./api";
import { guildsModule } from "./index";
import type { Actor } from "./service";

/**
 * The guilds service on a fresh database of this run's engine (TEST_DATABASE=postgres for PostgreSQL), with only
 * the core tables and the guilds module migrated: the service takes plain actors, so it needs no other module, and
 * its store runs on PostgreSQL even while other modules do not yet (the accounts stand-in has no tables).
 */
export async function createGuildsTestContext() {
  const clock = new FakeClock(Date.UTC(2026, 3, 1, 3, 0, 0));
  const accountsStandIn = defineModule({ name: "accounts" });
  // The guild game stores its results through games; the service tests play none.
  const gamesStandIn = defineModule({ name: "games" });
  const env = await createTestContext({ modules: [accountsStandIn, gamesStandIn, guildsModule], clock });
  const { service, store } = guildsApi(env.ctx);
  const users = tablesFor(env.ctx.database, { users: sqliteUsers }, { users: pgUsers }).users;
  let count = 0;

  /** A row in the core users table (what registration would write: the e-mail lower-cased), as an actor. */
  async function user(name = `회원${++count}`, email = `member${count}@example.com`): Promise<Actor> {
    const at = new Date(clock.now());
    const [row] = await storeDb(env.ctx.database)
      .insert(users)
      .values({
        username: name,
        usernameKey: name.toLowerCase(),
        email: email.toLowerCase(),
        passwordHash: "-",
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: users.id });
    return { id: row.id, username: name };
  }

  /** A guild made by `admin`, with `members` joined through accepted e-mail invitations. */
  async function guildOf(admin: Actor, name: string, members: Actor[] = []) {
    const guild = await service.create(admin, { name });
    if (members.length > 0) {
      const emails = await Promise.all(members.map((m) => store.userEmail(m.id)));
      const { invitations } = await service.invite(
        admin,
        guild.id,
        emails.map((email) => ({ email: email! })),
      );
      for (const [i, member] of members.entries()) await service.acceptInvitation(member, invitations[i].id);
    }
    return guild;
  }

  return { ...env, clock, service, store, user, guildOf };
}
