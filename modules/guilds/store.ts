import { and, asc, desc, eq, inArray, isNull, lt, ne, type SQL, sql } from "drizzle-orm";
import { users as sqliteUsers } from "../../db/core/schema";
import { users as pgUsers } from "../../db/core/schema.pg";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, type StoreDb, storeDb, tablesFor } from "../../db/store";
import { countViewOnce } from "../kernel/viewers";
import type { ApplicationStatus, GuildRole } from "./rules";
import { CHAT_KEPT } from "./rules";
import type { ActivityRow, GuildRow, InvitationRow, MemberRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

/**
 * The guilds module's one store, written once for SQLite and PostgreSQL (db/README.md): `queries` are the reads and
 * writes, each awaiting drizzle builders; `unit(fn)` runs `fn` in one transaction, so a service's check-then-write
 * (one guild per user, a full guild, a pending invitation) is one unit of work on both engines. Services see these
 * named queries, never a driver. What differs by engine is only the table objects (`tablesFor`); counts are cast
 * to integer because PostgreSQL answers `count(*)` as bigint text.
 */
export function createGuildsStore(database: SqlDatabase) {
  const tables = tablesFor(database, { ...sqliteSchema, users: sqliteUsers }, { ...pgSchema, users: pgUsers });
  return {
    ...guildQueries(storeDb(database), tables),
    unit: <T>(fn: (q: GuildQueries) => Promise<T>) => inTransaction(database, (db) => fn(guildQueries(db, tables))),
  };
}
export type GuildsStore = ReturnType<typeof createGuildsStore>;
export type GuildQueries = ReturnType<typeof guildQueries>;

type Tables = typeof sqliteSchema & { users: typeof sqliteUsers };

const count = () => sql<number>`cast(count(*) as integer)`.mapWith(Number);
/** A LIKE pattern matching `text` anywhere, with the wildcards of the text itself escaped. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type MemberWithName = MemberRow & { username: string };
export type GuildWithCount = GuildRow & { memberCount: number };

function guildQueries(db: StoreDb, t: Tables) {
  const { guilds, guildMembers: members, users } = t;
  const liveGuild = (id: number) => and(eq(guilds.id, id), isNull(guilds.deletedAt));
  // The outer column is spelled out: drizzle renders a column inside a selected `sql` unqualified ("id"), which
  // the subquery would read as its own table's id.
  const memberCount = sql<number>`(select cast(count(*) as integer) from guilds_members m
    where m.guild_id = "guilds"."id" and m.left_at is null)`.mapWith(Number);
  const first = <R>(rows: R[]): R | undefined => rows[0];

  return {
    // ---- guilds
    async insertGuild(values: typeof guilds.$inferInsert) {
      return first(await db.insert(guilds).values(values).returning())!;
    },
    async guild(id: number): Promise<GuildWithCount | undefined> {
      const row = first(await db.select({ guild: guilds, memberCount }).from(guilds).where(liveGuild(id)));
      return row && { ...row.guild, memberCount: row.memberCount };
    },
    async guildByNameKey(key: string) {
      return first(
        await db
          .select({ id: guilds.id })
          .from(guilds)
          .where(and(eq(guilds.nameKey, key), isNull(guilds.deletedAt))),
      );
    },
    /** Live guilds, newest first, optionally those whose lower-cased name contains `q` (already lower-cased). */
    async listGuilds(input: { q?: string; limit: number; offset: number }) {
      const where = and(
        isNull(guilds.deletedAt),
        input.q ? sql`${guilds.nameKey} LIKE ${contains(input.q)} ESCAPE '\\'` : undefined,
      );
      const total = first(await db.select({ n: count() }).from(guilds).where(where))?.n ?? 0;
      const rows = await db
        .select({ guild: guilds, memberCount })
        .from(guilds)
        .where(where)
        .orderBy(desc(guilds.createdAt), desc(guilds.id))
        .limit(input.limit)
        .offset(input.offset);
      return { total, rows: rows.map((r): GuildWithCount => ({ ...r.guild, memberCount: r.memberCount })) };
    },
    /**
     * Takes the guild row's write lock for the rest of the transaction (PostgreSQL; SQLite transactions are serial
     * anyway), so two joins to one guild cannot both see room for one more member. An update of nothing is the
     * engine-neutral way: drizzle's `FOR UPDATE` exists on PostgreSQL only.
     */
    async lockGuild(id: number) {
      await db
        .update(guilds)
        .set({ updatedAt: sql`${guilds.updatedAt}` })
        .where(eq(guilds.id, id));
    },
    async updateGuild(id: number, values: Partial<typeof guilds.$inferInsert>) {
      await db.update(guilds).set(values).where(eq(guilds.id, id));
    },

    // ---- members
    /** The user's live membership (a user is in at most one guild). */
    async membershipOf(userId: number): Promise<MemberRow | undefined> {
      return first(
        await db
          .select()
          .from(members)
          .where(and(eq(members.userId, userId), isNull(members.leftAt))),
      );
    },
    async member(guildId: number, memberId: number): Promise<MemberWithName | undefined> {
      const row = first(
        await db
          .select({ member: members, username: users.username })
          .from(members)
          .innerJoin(users, eq(users.id, members.userId))
          .where(and(eq(members.id, memberId), eq(members.guildId, guildId), isNull(members.leftAt))),
      );
      return row && { ...row.member, username: row.username };
    },
    async members(guildId: number): Promise<MemberWithName[]> {
      const rows = await db
        .select({ member: members, username: users.username })
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(and(eq(members.guildId, guildId), isNull(members.leftAt)))
        .orderBy(asc(members.joinedAt), asc(members.id));
      return rows.map((r) => ({ ...r.member, username: r.username }));
    },
    async countMembers(guildId: number, role?: GuildRole) {
      const where = and(
        eq(members.guildId, guildId),
        isNull(members.leftAt),
        role ? eq(members.role, role) : undefined,
      );
      return first(await db.select({ n: count() }).from(members).where(where))?.n ?? 0;
    },
    async insertMember(values: { guildId: number; userId: number; role: GuildRole; joinedAt: Date }) {
      return first(await db.insert(members).values(values).returning())!;
    },
    async setRole(memberId: number, role: GuildRole) {
      await db.update(members).set({ role }).where(eq(members.id, memberId));
    },
    async endMembership(memberId: number, at: Date) {
      await db.update(members).set({ leftAt: at }).where(eq(members.id, memberId));
    },
    async endAllMemberships(guildId: number, at: Date) {
      await db
        .update(members)
        .set({ leftAt: at })
        .where(and(eq(members.guildId, guildId), isNull(members.leftAt)));
    },
    /** The longest-standing admin other than `exceptUserId` (the next owner when the owner leaves). */
    async nextAdmin(guildId: number, exceptUserId: number) {
      return first(
        await db
          .select()
          .from(members)
          .where(
            and(
              eq(members.guildId, guildId),
              isNull(members.leftAt),
              eq(members.role, "admin"),
              ne(members.userId, exceptUserId),
            ),
          )
          .orderBy(asc(members.joinedAt), asc(members.id))
          .limit(1),
      );
    },
    /** Which of these (lower-cased) e-mails belong to live members of the guild. */
    async memberEmails(guildId: number, emails: string[]) {
      if (emails.length === 0) return [];
      const rows = await db
        .select({ email: users.email })
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(and(eq(members.guildId, guildId), isNull(members.leftAt), inArray(users.email, emails)));
      return rows.map((r) => r.email);
    },
    async userEmail(userId: number) {
      return first(await db.select({ email: users.email }).from(users).where(eq(users.id, userId)))?.email;
    },
    async usernames(ids: number[]) {
      if (ids.length === 0) return new Map<number, string>();
      const rows = await db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(inArray(users.id, [...new Set(ids)]));
      return new Map(rows.map((r) => [r.id, r.username]));
    },

    // ---- invitations
    async insertInvitations(rows: (typeof t.guildInvitations.$inferInsert)[]) {
      return db.insert(t.guildInvitations).values(rows).returning();
    },
    async pendingInvitationsOf(guildId: number): Promise<InvitationRow[]> {
      const inv = t.guildInvitations;
      return db
        .select()
        .from(inv)
        .where(and(eq(inv.guildId, guildId), eq(inv.status, "pending")))
        .orderBy(desc(inv.createdAt), desc(inv.id));
    },
    /** Pending invitations to this (lower-cased) e-mail from live guilds, newest first, with names. */
    async pendingInvitationsFor(email: string) {
      const inv = t.guildInvitations;
      return db
        .select({ invitation: inv, guildName: guilds.name, invitedBy: users.username })
        .from(inv)
        .innerJoin(guilds, eq(guilds.id, inv.guildId))
        .innerJoin(users, eq(users.id, inv.invitedBy))
        .where(and(eq(inv.email, email), eq(inv.status, "pending"), isNull(guilds.deletedAt)))
        .orderBy(desc(inv.createdAt), desc(inv.id));
    },
    async invitation(id: number) {
      return first(await db.select().from(t.guildInvitations).where(eq(t.guildInvitations.id, id)));
    },
    /** Answers a pending invitation; false when it was answered meanwhile (the row lock orders two answers). */
    async answerInvitation(id: number, status: "accepted" | "declined", at: Date) {
      const inv = t.guildInvitations;
      const rows = await db
        .update(inv)
        .set({ status, respondedAt: at })
        .where(and(eq(inv.id, id), eq(inv.status, "pending")))
        .returning({ id: inv.id });
      return rows.length > 0;
    },
    async cancelPendingInvitations(guildId: number, at: Date) {
      const inv = t.guildInvitations;
      await db
        .update(inv)
        .set({ status: "cancelled", respondedAt: at })
        .where(and(eq(inv.guildId, guildId), eq(inv.status, "pending")));
    },

    // ---- recruitment
    async insertRecruitment(values: typeof t.guildRecruitmentPosts.$inferInsert) {
      return first(await db.insert(t.guildRecruitmentPosts).values(values).returning())!;
    },
    async recruitment(id: number) {
      return first(await recruitmentSelect(db, t).where(and(liveRecruitment(t), eq(t.guildRecruitmentPosts.id, id))));
    },
    /** Hides one live recruitment post (moderation); false when it was gone already. */
    async hideRecruitment(id: number, at: Date) {
      const p = t.guildRecruitmentPosts;
      const rows = await db
        .update(p)
        .set({ deletedAt: at })
        .where(and(eq(p.id, id), isNull(p.deletedAt)))
        .returning({ id: p.id });
      return rows.length > 0;
    },
    async listRecruitment(limit: number, offset: number) {
      const p = t.guildRecruitmentPosts;
      const total =
        first(
          await db.select({ n: count() }).from(p).innerJoin(guilds, eq(guilds.id, p.guildId)).where(liveRecruitment(t)),
        )?.n ?? 0;
      const rows = await recruitmentSelect(db, t)
        .where(liveRecruitment(t))
        .orderBy(desc(p.createdAt), desc(p.id))
        .limit(limit)
        .offset(offset);
      return { total, rows };
    },
    /** Counts a visit once per viewer and window (kernel/viewers.ts); true when it counted. Inside `unit`. */
    async countRecruitmentView(postId: number, viewerKey: string, at: Date, since: Date) {
      return countViewOnce(
        db,
        { views: t.guildRecruitmentViews, posts: t.guildRecruitmentPosts },
        { postId, viewerKey, at, since },
      );
    },
    async hidePostsOfGuild(guildId: number, at: Date) {
      const p = t.guildRecruitmentPosts;
      await db
        .update(p)
        .set({ deletedAt: at })
        .where(and(eq(p.guildId, guildId), isNull(p.deletedAt)));
    },

    // ---- applications
    async insertApplication(values: typeof t.guildApplications.$inferInsert) {
      return first(await db.insert(t.guildApplications).values(values).returning())!;
    },
    async pendingApplication(guildId: number, userId: number) {
      const a = t.guildApplications;
      return first(
        await db
          .select()
          .from(a)
          .where(and(eq(a.guildId, guildId), eq(a.userId, userId), eq(a.status, "pending"))),
      );
    },
    async application(guildId: number, id: number) {
      const a = t.guildApplications;
      return first(
        await db
          .select()
          .from(a)
          .where(and(eq(a.id, id), eq(a.guildId, guildId))),
      );
    },
    async applications(guildId: number, status?: ApplicationStatus) {
      const a = t.guildApplications;
      return db
        .select({ application: a, username: users.username })
        .from(a)
        .innerJoin(users, eq(users.id, a.userId))
        .where(and(eq(a.guildId, guildId), status ? eq(a.status, status) : undefined))
        .orderBy(desc(a.createdAt), desc(a.id));
    },
    async decideApplication(id: number, status: ApplicationStatus, at: Date, by: number | null) {
      await db
        .update(t.guildApplications)
        .set({ status, decidedAt: at, decidedBy: by })
        .where(eq(t.guildApplications.id, id));
    },
    /** Pending applications of a guild (disbanded) or of a user (joined a guild) become cancelled. */
    async cancelPendingApplications(where: { guildId: number } | { userId: number }, at: Date) {
      const a = t.guildApplications;
      const owner = "guildId" in where ? eq(a.guildId, where.guildId) : eq(a.userId, where.userId);
      await db
        .update(a)
        .set({ status: "cancelled", decidedAt: at })
        .where(and(owner, eq(a.status, "pending")));
    },

    // ---- guild board
    async boardPosts(guildId: number, limit: number, offset: number) {
      const p = t.guildBoardPosts;
      return db
        .select({ post: p, authorName: users.username })
        .from(p)
        .innerJoin(users, eq(users.id, p.authorId))
        .where(and(eq(p.guildId, guildId), isNull(p.deletedAt)))
        .orderBy(desc(p.createdAt), desc(p.id))
        .limit(limit)
        .offset(offset);
    },
    async boardPost(guildId: number, postId: number) {
      const p = t.guildBoardPosts;
      return first(
        await db
          .select({ post: p, authorName: users.username })
          .from(p)
          .innerJoin(users, eq(users.id, p.authorId))
          .where(and(eq(p.id, postId), eq(p.guildId, guildId), isNull(p.deletedAt))),
      );
    },
    async insertBoardPost(values: typeof t.guildBoardPosts.$inferInsert) {
      return first(await db.insert(t.guildBoardPosts).values(values).returning())!;
    },
    async updateBoardPost(postId: number, values: Partial<typeof t.guildBoardPosts.$inferInsert>) {
      await db.update(t.guildBoardPosts).set(values).where(eq(t.guildBoardPosts.id, postId));
    },
    async comments(postId: number) {
      const c = t.guildBoardComments;
      return db
        .select({ comment: c, authorName: users.username })
        .from(c)
        .innerJoin(users, eq(users.id, c.authorId))
        .where(and(eq(c.postId, postId), isNull(c.deletedAt)))
        .orderBy(asc(c.createdAt), asc(c.id));
    },
    async comment(postId: number, commentId: number) {
      const c = t.guildBoardComments;
      return first(
        await db
          .select({ comment: c, authorName: users.username })
          .from(c)
          .innerJoin(users, eq(users.id, c.authorId))
          .where(and(eq(c.id, commentId), eq(c.postId, postId), isNull(c.deletedAt))),
      );
    },
    /** Inserts a comment and counts it on its post (call inside `unit`). */
    async insertComment(values: typeof t.guildBoardComments.$inferInsert) {
      const row = first(await db.insert(t.guildBoardComments).values(values).returning())!;
      await bumpCommentCount(db, t, values.postId, 1);
      return row;
    },
    /**
     * Soft-deletes a live comment and uncounts it (call inside `unit`); false when it was deleted meanwhile, so a
     * comment deleted twice at once is counted down once.
     */
    async deleteComment(postId: number, commentId: number, at: Date, by: number | null) {
      const c = t.guildBoardComments;
      const rows = await db
        .update(c)
        .set({ deletedAt: at, deletedBy: by })
        .where(and(eq(c.id, commentId), isNull(c.deletedAt)))
        .returning({ id: c.id });
      if (rows.length === 0) return false;
      await bumpCommentCount(db, t, postId, -1);
      return true;
    },

    // ---- chat
    /** Stores a chat message and drops the guild's messages older than the last `CHAT_KEPT` (call inside `unit`). */
    async insertMessage(values: typeof t.guildMessages.$inferInsert) {
      const m = t.guildMessages;
      const row = first(await db.insert(m).values(values).returning())!;
      const cutoff = first(
        await db
          .select({ id: m.id })
          .from(m)
          .where(eq(m.guildId, values.guildId))
          .orderBy(desc(m.id))
          .limit(1)
          .offset(CHAT_KEPT - 1),
      );
      if (cutoff) await db.delete(m).where(and(eq(m.guildId, values.guildId), lt(m.id, cutoff.id)));
      return row;
    },
    /** Removes one stored chat line (moderation); false when it was gone already (pruned, or removed). */
    async deleteMessage(guildId: number, id: number) {
      const m = t.guildMessages;
      const rows = await db
        .delete(m)
        .where(and(eq(m.guildId, guildId), eq(m.id, id)))
        .returning({ id: m.id });
      return rows.length > 0;
    },
    /** The last `limit` messages, oldest first. */
    async recentMessages(guildId: number, limit = CHAT_KEPT) {
      const m = t.guildMessages;
      const rows = await db
        .select({ message: m, username: users.username })
        .from(m)
        .innerJoin(users, eq(users.id, m.userId))
        .where(eq(m.guildId, guildId))
        .orderBy(desc(m.id))
        .limit(limit);
      return rows.reverse();
    },

    // ---- guild game rewards
    /**
     * Decides, once per (guild, round, member), whether the member is rewarded for a finished guild game: yes while
     * they have had fewer than `cap` rewarded guild games on `day` (call inside `unit`). The decision row is written
     * first (a retried finish reads the decision made before), then the day's counter is raised by one conditional
     * upsert — the count and the write are one statement, so parallel finishes on several processes never pass
     * the cap: PostgreSQL locks the counter row and re-checks the condition, SQLite has one writer at a time.
     */
    async claimGameRewards(
      game: { guildId: number; round: number; day: string; at: Date },
      userIds: readonly number[],
      cap: number,
    ): Promise<Map<number, boolean>> {
      const r = t.guildGameRewards;
      const d = t.guildGameRewardDays;
      const decided = new Map<number, boolean>();
      for (const userId of [...new Set(userIds)].sort((a, b) => a - b)) {
        const key = { guildId: game.guildId, round: game.round, userId };
        const [row] = await db
          .insert(r)
          .values({ ...key, day: game.day, rewarded: false, createdAt: game.at })
          .onConflictDoNothing()
          .returning({ id: r.id });
        if (!row) {
          const before = first(
            await db
              .select({ rewarded: r.rewarded })
              .from(r)
              .where(and(eq(r.guildId, key.guildId), eq(r.round, key.round), eq(r.userId, userId))),
          );
          decided.set(userId, before?.rewarded ?? false);
          continue;
        }
        const slot = await db
          .insert(d)
          .values({ userId, day: game.day, games: 1 })
          .onConflictDoUpdate({
            target: [d.userId, d.day],
            set: { games: sql`${d.games} + 1` },
            setWhere: lt(d.games, cap),
          })
          .returning({ games: d.games });
        const rewarded = slot.length > 0;
        if (rewarded) await db.update(r).set({ rewarded }).where(eq(r.id, row.id));
        decided.set(userId, rewarded);
      }
      return decided;
    },
    /** Decisions and counters of days before `day` (YYYY-MM-DD) are no longer needed (call inside `unit`). */
    async pruneGameRewards(day: string) {
      await db.delete(t.guildGameRewards).where(lt(t.guildGameRewards.day, day));
      await db.delete(t.guildGameRewardDays).where(lt(t.guildGameRewardDays.day, day));
    },

    // ---- activity
    async addActivity(values: typeof t.guildActivity.$inferInsert) {
      await db.insert(t.guildActivity).values(values);
    },
    /** The guild's last `limit` activities, newest first. */
    async recentActivity(guildId: number, limit: number): Promise<ActivityRow[]> {
      const a = t.guildActivity;
      return db.select().from(a).where(eq(a.guildId, guildId)).orderBy(desc(a.id)).limit(limit);
    },
  };
}

function liveRecruitment(t: Tables): SQL {
  return and(isNull(t.guildRecruitmentPosts.deletedAt), isNull(t.guilds.deletedAt))!;
}

/** A recruitment post with its guild's and author's names and its number of applications (`reply_count`). */
function recruitmentSelect(db: StoreDb, t: Tables) {
  const p = t.guildRecruitmentPosts;
  // The outer column spelled out, as for `memberCount`.
  const replyCount = sql<number>`(select cast(count(*) as integer) from guilds_applications a
    where a.post_id = "guilds_recruitment_posts"."id")`.mapWith(Number);
  return db
    .select({ post: p, guildName: t.guilds.name, authorName: t.users.username, replyCount })
    .from(p)
    .innerJoin(t.guilds, eq(t.guilds.id, p.guildId))
    .innerJoin(t.users, eq(t.users.id, p.authorId))
    .$dynamic();
}

async function bumpCommentCount(db: StoreDb, t: Tables, postId: number, by: 1 | -1) {
  const p = t.guildBoardPosts;
  // CASE rather than SQLite's two-argument max(), which PostgreSQL does not have.
  await db
    .update(p)
    .set({ commentCount: sql`case when ${p.commentCount} + ${by} < 0 then 0 else ${p.commentCount} + ${by} end` })
    .where(eq(p.id, postId));
}
