import type { ActivityKind, GuildRole } from "./rules";
import type {
  ActivityRow,
  ApplicationRow,
  BoardCommentRow,
  BoardPostRow,
  InvitationRow,
  MessageRow,
  RecruitmentRow,
} from "./schema";
import type { GuildWithCount, MemberWithName } from "./store";

/** Wire shapes (spec part 1 §3 and product-rules "Guild wire details"): snake_case, times ISO 8601 UTC. */
const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? iso(date) : null);

export function presentGuild(guild: GuildWithCount) {
  return {
    id: guild.id,
    name: guild.name,
    description: guild.description,
    created_at: iso(guild.createdAt),
    max_members: guild.maxMembers,
    owner_id: guild.ownerId,
    countdown_seconds: guild.countdownSeconds,
    end_countdown_seconds: guild.endCountdownSeconds,
    member_count: guild.memberCount,
  };
}
export type PresentedGuild = ReturnType<typeof presentGuild>;

const ROLE_ORDER: Record<GuildRole, number> = { admin: 0, moderator: 1, member: 2 };

/** Admins first, then moderators, then members, each by join date. */
export function presentMembers(members: MemberWithName[]) {
  return [...members].sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role]).map(presentMember);
}

export function presentMember(member: MemberWithName) {
  return {
    id: member.id,
    user_id: member.userId,
    username: member.username,
    role: member.role,
    join_date: iso(member.joinedAt),
  };
}
export type PresentedMember = ReturnType<typeof presentMember>;

export const ROLE_LABELS: Record<GuildRole, string> = { admin: "관리자", moderator: "부관리자", member: "일반 회원" };

const activityText: Record<ActivityKind, (user: string, detail: string) => string> = {
  created: (user) => `${user}님이 길드를 만들었습니다.`,
  joined: (user) => `${user}님이 길드에 가입했습니다.`,
  left: (user) => `${user}님이 길드를 떠났습니다.`,
  kicked: (user) => `${user}님이 길드에서 추방되었습니다.`,
  role_changed: (user, role) => `${user}님의 역할이 ${ROLE_LABELS[role as GuildRole] ?? role}(으)로 바뀌었습니다.`,
  game: (_user, detail) => `길드 게임이 끝났습니다. ${detail}`.trim(),
  post: (user, title) => `${user}님이 게시판에 「${title}」을(를) 올렸습니다.`,
};

/** An activity of the recent-activity list, with a Korean sentence saying what happened. */
export function presentActivity(row: ActivityRow, names: Map<number, string>) {
  const username = row.userId === null ? null : (names.get(row.userId) ?? null);
  return {
    id: row.id,
    type: row.kind,
    user_id: row.userId,
    username,
    actor_id: row.actorId,
    actor_name: row.actorId === null ? null : (names.get(row.actorId) ?? null),
    detail: row.detail,
    message: activityText[row.kind](username ?? "알 수 없는 사용자", row.detail),
    created_at: iso(row.createdAt),
  };
}

/** An invitation as the invited account sees it. */
export function presentMyInvitation(row: { invitation: InvitationRow; guildName: string; invitedBy: string }) {
  return {
    id: row.invitation.id,
    guild_id: row.invitation.guildId,
    guild_name: row.guildName,
    invited_by: row.invitedBy,
    invited_by_id: row.invitation.invitedBy,
    created_at: iso(row.invitation.createdAt),
  };
}

/** An invitation as the guild's admins see it (the Invite entity of spec §3 plus its state). */
export function presentSentInvitation(row: InvitationRow) {
  return {
    id: row.id,
    guild_id: row.guildId,
    username: row.username,
    email: row.email,
    status: row.status,
    invited_by_id: row.invitedBy,
    created_at: iso(row.createdAt),
  };
}

export function presentRecruitment(row: {
  post: RecruitmentRow;
  guildName: string;
  authorName: string;
  replyCount: number;
}) {
  return {
    id: row.post.id,
    title: row.post.title,
    content: row.post.content,
    author_id: row.post.authorId,
    author_name: row.authorName,
    guild_id: row.post.guildId,
    guild_name: row.guildName,
    created_at: iso(row.post.createdAt),
    view_count: row.post.viewCount,
    reply_count: row.replyCount,
  };
}

export function presentApplication(row: { application: ApplicationRow; username: string }) {
  const a = row.application;
  return {
    id: a.id,
    guild_id: a.guildId,
    post_id: a.postId,
    user_id: a.userId,
    username: row.username,
    message: a.message,
    status: a.status,
    created_at: iso(a.createdAt),
    decided_at: isoOrNull(a.decidedAt),
  };
}

export function presentBoardPost(row: { post: BoardPostRow; authorName: string }) {
  return {
    id: row.post.id,
    guild_id: row.post.guildId,
    title: row.post.title,
    content: row.post.content,
    author_id: row.post.authorId,
    author_name: row.authorName,
    created_at: iso(row.post.createdAt),
    updated_at: iso(row.post.updatedAt),
    comment_count: row.post.commentCount,
  };
}

export function presentComment(row: { comment: BoardCommentRow; authorName: string }) {
  return {
    id: row.comment.id,
    post_id: row.comment.postId,
    content: row.comment.content,
    author_id: row.comment.authorId,
    author_name: row.authorName,
    created_at: iso(row.comment.createdAt),
  };
}

/** A guild chat line (the Guild message of spec §3, with its author's id). */
export function presentMessage(row: { message: MessageRow; username: string }) {
  return {
    id: row.message.id,
    guild_id: row.message.guildId,
    user_id: row.message.userId,
    username: row.username,
    message: row.message.message,
    timestamp: iso(row.message.createdAt),
  };
}
export type PresentedMessage = ReturnType<typeof presentMessage>;
