import { type AccountChange, accountsApi } from "../accounts";
import { type Actor, adminApi } from "../admin";
import { deleteBoardContent } from "../board";
import { keepReplay } from "../games";
import { deleteGuildContent } from "../guilds";
import type { ModuleContext } from "../kernel/define-module";
import { AppError, badRequest, conflict, notFound } from "../kernel/errors";
import { setRankingExclusion } from "../rankings";
import { moderationChanged } from "./enforcement";
import {
  ACTION_REASON_MAX,
  BLOCKS_MAX,
  DURATIONS,
  type Duration,
  MODERATION_MSG,
  MUTE_DURATIONS,
  NOTE_MAX,
  type ReportAction,
  type ReportReason,
  type RestrictionKind,
  SUSPEND_DURATIONS,
  WARNING_MAX,
} from "./rules";
import type { ReportRow, RestrictionRow } from "./schema";
import { type GroupKey, moderationStoreOf } from "./store";
import { deletableOf, type Evidence, findTarget, type TargetInput } from "./targets";
import { wordListService } from "./word-list";

/** The admin log's action of each report action (admin/labels.ts names them in Korean). */
export const LOG_ACTIONS: Record<ReportAction | "lift", string> = {
  dismiss: "report_dismiss",
  delete: "report_delete_content",
  mute: "mute_user",
  suspend: "suspend_user",
  exclude: "exclude_from_rankings",
  warn: "warn_user",
  lift: "lift_restriction",
};

export interface ReportRequest extends TargetInput {
  reason: ReportReason;
  note?: string | null;
}

export interface ActionRequest {
  action: ReportAction;
  duration?: Duration;
  /** Shown to the member (mute, suspension) and kept in the log; defaults to the report's reason. */
  reason?: string | null;
  /** A warning's text; defaults to a sentence naming the report's reason. */
  message?: string | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;
const codePoints = (text: string) => [...text].length;

/** Trimmed optional text within `max` characters (a 400 with `tooLong` otherwise); empty is none. */
function optionalText(text: string | null | undefined, max: number, tooLong: string) {
  const trimmed = text?.normalize("NFC").trim();
  if (trimmed && codePoints(trimmed) > max) throw badRequest(tooLong);
  return trimmed || null;
}

export function presentRestriction(row: RestrictionRow) {
  return {
    id: row.id,
    user_id: row.userId,
    kind: row.kind,
    reason: row.reason,
    starts_at: row.startsAt.toISOString(),
    ends_at: iso(row.endsAt),
    lifted_at: iso(row.liftedAt),
    lifted_by: row.liftedByName,
    report_id: row.reportId,
    created_by: row.createdByName,
  };
}
export type RestrictionView = ReturnType<typeof presentRestriction>;

function presentReport(row: ReportRow) {
  return {
    id: row.id,
    reporter: { id: row.reporterId, username: row.reporterName },
    reason: row.reason,
    note: row.note,
    evidence: JSON.parse(row.evidence) as Evidence,
    created_at: row.createdAt.toISOString(),
  };
}
export type ReportView = ReturnType<typeof presentReport>;

/**
 * The report queue, the actions and what a member sees of them (README). Every action and its admin log row are one
 * transaction; the live consequences (sockets closed or told of a mute, on every process) follow the commit.
 */
export function moderationService(ctx: ModuleContext) {
  const store = moderationStoreOf(ctx.database);
  const accounts = accountsApi(ctx).service;
  const now = () => ctx.clock.now();

  async function report(reporter: { id: number; username: string }, input: ReportRequest) {
    const note = optionalText(input.note, NOTE_MAX, MODERATION_MSG.noteTooLong);
    const target = await findTarget(ctx, reporter.id, input);
    if (target.offender.id === reporter.id) throw badRequest(MODERATION_MSG.selfReport);
    // Checked first for the answer; the unique index decides when two arrive at once.
    if (await store.openReportOf(reporter.id, target.key)) throw conflict(MODERATION_MSG.duplicate);
    const id = await store.insertReport({
      reporterId: reporter.id,
      reporterName: reporter.username,
      targetKey: target.key,
      targetKind: input.kind,
      offenderId: target.offender.id,
      offenderName: target.offender.name,
      reason: input.reason,
      note,
      evidence: JSON.stringify(target.evidence),
      createdAt: new Date(now()),
    });
    if (id === null) throw conflict(MODERATION_MSG.duplicate);
    // The replay is the evidence: it must outlive the 90-day retention.
    if (target.evidence.type === "player" && target.evidence.replay) await keepReplay(ctx, target.evidence.replay.key);
    return { id, detail: MODERATION_MSG.reported };
  }

  /** Groups with their reports, the offender's restrictions in force and, once resolved, who did what. */
  async function presentGroups(status: "open" | "resolved", keys: GroupKey[]) {
    const rows = await store.reportsOf(status, keys);
    const at = new Date(now());
    return Promise.all(
      keys.map(async (key) => {
        const reports = rows.filter((r) => r.targetKey === key.targetKey && r.resolvedWith === key.resolvedWith);
        const last = reports[reports.length - 1];
        const first = reports[0];
        const reasons: Record<string, number> = {};
        for (const r of reports) reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
        const restrictions = last.offenderId === null ? [] : await store.activeOfUser(last.offenderId, at);
        return {
          target_key: key.targetKey,
          target_kind: last.targetKind,
          offender: last.offenderId === null ? null : { id: last.offenderId, username: last.offenderName },
          status,
          count: reports.length,
          reasons,
          first_at: first.createdAt.toISOString(),
          last_at: last.createdAt.toISOString(),
          resolution: last.resolution,
          resolved_by: last.resolvedByName,
          resolved_at: iso(last.resolvedAt),
          restrictions: restrictions.map(presentRestriction),
          reports: reports.map(presentReport),
        };
      }),
    );
  }

  async function listGroups(status: "open" | "resolved", page: number, size: number) {
    const { keys, total } = await store.groups(status, size, (page - 1) * size);
    return {
      groups: await presentGroups(status, keys),
      total,
      page,
      size,
      total_pages: Math.ceil(total / size),
    };
  }

  async function requireReport(id: number) {
    const row = await store.report(id);
    if (!row) throw notFound(MODERATION_MSG.reportNotFound);
    return row;
  }

  /** The group a report belongs to (its target's open reports, or the reports resolved with it). */
  async function groupOf(id: number) {
    const row = await requireReport(id);
    const [group] = await presentGroups(row.status, [{ targetKey: row.targetKey, resolvedWith: row.resolvedWith }]);
    return group;
  }

  function durationOf(request: ActionRequest, allowed: readonly Duration[]) {
    if (!request.duration) throw badRequest(MODERATION_MSG.durationRequired);
    if (!allowed.includes(request.duration)) throw badRequest(MODERATION_MSG.badDuration(allowed));
    return request.duration === "permanent" ? null : DURATIONS[request.duration];
  }

  /** What an action needs checked before its transaction: its duration, texts, offender and content. */
  function plan(actor: Actor, row: ReportRow, request: ActionRequest) {
    const reason = optionalText(request.reason, ACTION_REASON_MAX, MODERATION_MSG.reasonTooLong) ?? row.reason;
    const message = optionalText(request.message, WARNING_MAX, MODERATION_MSG.warningTooLong);
    const evidence = JSON.parse(row.evidence) as Evidence;
    const deletable = request.action === "delete" ? deletableOf(row.targetKind, evidence) : null;
    if (request.action === "delete" && !deletable) throw badRequest(MODERATION_MSG.nothingToDelete);
    const onMember = ["mute", "suspend", "exclude", "warn"].includes(request.action);
    if (onMember && row.offenderId === null) throw badRequest(MODERATION_MSG.noOffender);
    if (onMember && row.offenderId === actor.id) throw badRequest(MODERATION_MSG.selfAction);
    const length =
      request.action === "mute"
        ? durationOf(request, MUTE_DURATIONS)
        : request.action === "suspend"
          ? durationOf(request, SUSPEND_DURATIONS)
          : null;
    return { reason, message, deletable, length };
  }

  async function deleteContent(deletable: NonNullable<ReturnType<typeof deletableOf>>, by: number | null) {
    const gone =
      deletable.module === "board"
        ? await deleteBoardContent(ctx, deletable.kind, deletable.id, by)
        : await deleteGuildContent(ctx, deletable.ref, by);
    if (!gone) throw conflict(MODERATION_MSG.contentGone);
  }

  /**
   * Acts on a report: every open report of its target is resolved with it, the consequence is written (a
   * restriction, a notice, the content's deletion, the sessions' end) and the admin log row names the report, all in
   * one transaction. Then the member's live sockets learn it on every process.
   */
  async function resolve(actor: Actor, reportId: number, request: ActionRequest) {
    const row = await requireReport(reportId);
    if (row.status !== "open") throw conflict(MODERATION_MSG.alreadyResolved);
    const { reason, message, deletable, length } = plan(actor, row, request);
    const at = new Date(now());
    const offenderId = row.offenderId;
    const offender = offenderId === null ? null : await accounts.findById(offenderId);
    const target = offenderId === null ? null : { id: offenderId, username: offender?.username ?? row.offenderName };
    let restriction: RestrictionRow | null = null;
    const change = await store.transaction(async (tx): Promise<AccountChange | null> => {
      const resolved = await store.resolveOpen(row.targetKey, {
        action: request.action,
        reportId,
        byId: actor.id,
        byName: actor.username,
        at,
      });
      if (!resolved.includes(reportId)) throw conflict(MODERATION_MSG.alreadyResolved);
      let closed: AccountChange | null = null;
      const restrict = async (kind: RestrictionKind) => {
        restriction = await store.insertRestriction({
          userId: offenderId!,
          kind,
          reason,
          startsAt: at,
          endsAt: length === null ? null : new Date(at.getTime() + length),
          reportId,
          createdByName: actor.username,
        });
      };
      switch (request.action) {
        case "delete":
          await deleteContent(deletable!, actor.id);
          break;
        case "mute":
          await restrict("mute");
          break;
        case "suspend":
          await restrict("suspend");
          closed = await accounts.suspendSessionsTx(tx, offenderId!);
          break;
        case "exclude":
          await restrict("exclude");
          await setRankingExclusion(ctx, offenderId!, true);
          break;
        case "warn":
          await store.insertNotice({
            userId: offenderId!,
            message:
              message ??
              `신고(${row.reason})가 확인되어 경고를 드립니다. 같은 일이 반복되면 이용이 제한될 수 있습니다.`,
            reportId,
            createdAt: at,
          });
          break;
        case "dismiss":
          break;
      }
      const ended = restriction as RestrictionRow | null;
      await adminApi(ctx).writeLog(actor, LOG_ACTIONS[request.action], target, {
        report_id: reportId,
        reports: resolved.length > 1 ? resolved.join(",") : undefined,
        target: row.targetKey,
        reason: ["mute", "suspend", "exclude"].includes(request.action) ? reason : undefined,
        duration: request.duration,
        until: ended?.endsAt ? ended.endsAt.toISOString() : undefined,
        message: request.action === "warn" ? (message ?? undefined) : undefined,
      });
      return closed;
    });
    if (change) await accounts.announce(change);
    if (request.action === "mute") await restrictionsChanged();
    return groupOf(reportId);
  }

  /** After a mute's change: this server's sockets are told before the answer, the other processes right after. */
  const restrictionsChanged = () => moderationChanged(ctx);

  /** Ends a restriction in force (a suspension "until lifted", a mute early, a ranking exclusion). */
  async function lift(actor: Actor, restrictionId: number) {
    const row = await store.restriction(restrictionId);
    if (!row) throw notFound(MODERATION_MSG.restrictionNotFound);
    const at = new Date(now());
    const lifted = await store.transaction(async () => {
      const done = await store.lift(restrictionId, at, actor.username);
      if (!done) throw conflict(MODERATION_MSG.alreadyLifted);
      if (done.kind === "exclude" && !(await store.inForce(done.userId, at, "exclude"))) {
        await setRankingExclusion(ctx, done.userId, false);
      }
      const user = await accounts.findById(done.userId);
      await adminApi(ctx).writeLog(actor, LOG_ACTIONS.lift, user ? { id: user.id, username: user.username } : null, {
        restriction_id: done.id,
        kind: done.kind,
        report_id: done.reportId ?? undefined,
      });
      return done;
    });
    if (lifted.kind === "mute") await restrictionsChanged();
    return presentRestriction(lifted);
  }

  /** A member's own state: warnings not seen yet, the mute in force and whom they blocked (the web uses all three). */
  async function mine(userId: number) {
    const at = new Date(now());
    const [notices, mutes, blocked] = await Promise.all([
      store.unseenNotices(userId),
      store.activeOfUser(userId, at, "mute"),
      store.blocksOf(userId),
    ]);
    const mute = mutes.sort((a, b) => (b.endsAt?.getTime() ?? 0) - (a.endsAt?.getTime() ?? 0))[0];
    return {
      notices: notices.map((n) => ({ id: n.id, message: n.message, created_at: n.createdAt.toISOString() })),
      mute: mute?.endsAt
        ? {
            until: mute.endsAt.toISOString(),
            reason: mute.reason,
            detail: MODERATION_MSG.mutedChat(mute.endsAt.getTime(), mute.reason),
          }
        : null,
      blocked: blocked.map((b) => b.blockedId),
    };
  }

  /** The members a member blocked, with their current names. */
  async function listBlocks(userId: number) {
    const rows = await store.blocksOf(userId);
    const users = await Promise.all(rows.map((row) => accounts.findById(row.blockedId)));
    return {
      blocks: rows.flatMap((row, i) => {
        const user = users[i];
        return user
          ? [{ user_id: row.blockedId, username: user.username, created_at: row.createdAt.toISOString() }]
          : [];
      }),
    };
  }

  async function block(userId: number, blockedId: number) {
    if (blockedId === userId) throw badRequest(MODERATION_MSG.selfBlock);
    if (!(await accounts.findById(blockedId))) throw notFound(MODERATION_MSG.blockUserNotFound);
    if ((await store.countBlocks(userId)) >= BLOCKS_MAX) throw badRequest(MODERATION_MSG.tooManyBlocks);
    await store.block(userId, blockedId, new Date(now()));
    return { detail: MODERATION_MSG.blocked };
  }

  async function unblock(userId: number, blockedId: number) {
    if (!(await store.unblock(userId, blockedId))) throw notFound(MODERATION_MSG.notBlocked);
    return { detail: MODERATION_MSG.unblocked };
  }

  async function markSeen(userId: number, noticeId: number) {
    if (!(await store.markSeen(noticeId, userId, new Date(now())))) throw notFound(MODERATION_MSG.noticeNotFound);
    return { detail: "확인했습니다." };
  }

  /** The login check: a suspended member is refused with the reason and the end (accounts' `addLoginCheck`). */
  async function checkLogin(userId: number) {
    const suspensions = await store.activeOfUser(userId, new Date(now()), "suspend");
    if (suspensions.length === 0) return;
    // The one that lasts longest decides what the member reads.
    const [longest] = suspensions.sort((a, b) => endOf(b) - endOf(a));
    const until = longest.endsAt?.getTime() ?? null;
    throw new AppError(403, MODERATION_MSG.suspended(until, longest.reason), "suspended", {
      reason: "suspended",
      suspension_reason: longest.reason,
      suspended_until: longest.endsAt?.toISOString() ?? "",
    });
  }

  async function userRestrictions(userId: number) {
    await accounts.requireById(userId);
    const rows = await store.activeOfUser(userId, new Date(now()));
    return { restrictions: rows.map(presentRestriction) };
  }

  return {
    report,
    listGroups,
    groupOf,
    resolve,
    lift,
    mine,
    markSeen,
    listBlocks,
    block,
    unblock,
    checkLogin,
    userRestrictions,
    openCounts: () => store.openCounts(),
    words: wordListService(ctx, restrictionsChanged),
  };
}
export type ModerationService = ReturnType<typeof moderationService>;

const endOf = (row: RestrictionRow) => row.endsAt?.getTime() ?? Number.POSITIVE_INFINITY;

/** The service of this context (one per context). */
const services = new WeakMap<ModuleContext, ModerationService>();
export function moderationApi(ctx: ModuleContext): ModerationService {
  let service = services.get(ctx);
  if (!service) {
    service = moderationService(ctx);
    services.set(ctx, service);
  }
  return service;
}
