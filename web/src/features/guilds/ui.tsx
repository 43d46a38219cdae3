/** Small pieces shared by the guild pages. */
import { Link } from "@tanstack/react-router";
import { isApiError } from "../../lib/api";
import { formatDateTime } from "../../lib/format";
import { TextAreaField, TextField } from "../../ui/text-field";
import type { GuildRole } from "./types";

export const ROLE_LABELS: Record<GuildRole, string> = { admin: "관리자", moderator: "부관리자", member: "일반 회원" };

/** A route's `$guildId` (or post id) as an id, or null when it cannot be one (spec §8 "잘못된 길드 ID입니다."). */
export function parseId(param: string | undefined): number | null {
  return param && /^[1-9]\d{0,9}$/.test(param) && Number(param) <= 2_147_483_647 ? Number(param) : null;
}

/** The server's Korean reason, else the page's own text. */
export function failureText(error: unknown, fallback: string): string {
  return isApiError(error) && error.detail ? error.detail : fallback;
}

/** The caller may manage applications and recruitment posts (spec §6 and product-rules "Guilds"). */
export const isStaff = (role: GuildRole | null | undefined) => role === "admin" || role === "moderator";

export function RoleIcon({ role }: { role: GuildRole }) {
  if (role === "admin") {
    return (
      <span className="guild-role-icon guild-role-admin" role="img" aria-label="관리자" title="관리자">
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path fill="currentColor" d="M3 7l4.5 4L12 4l4.5 7L21 7l-2 12H5L3 7z" />
        </svg>
      </span>
    );
  }
  if (role === "moderator") {
    return (
      <span className="guild-role-icon guild-role-moderator" role="img" aria-label="부관리자" title="부관리자">
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path fill="currentColor" d="M12 2l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V5l8-3z" />
        </svg>
      </span>
    );
  }
  return null;
}

export function When({ value }: { value: string }) {
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

/** "잘못된 길드 ID입니다." (spec §8) or another page-level refusal, with a way out. */
export function GuildProblem({ title, text }: { title: string; text?: string }) {
  return (
    <section className="guild-page guild-narrow card guild-problem" role="alert">
      <h1 className="guild-problem-title">{title}</h1>
      {text && <p className="muted">{text}</p>}
      <div className="guild-actions">
        <Link to="/guilds/my" className="btn btn-primary">
          내 길드로
        </Link>
        <Link to="/guilds" className="btn btn-ghost">
          길드 목록
        </Link>
      </div>
    </section>
  );
}

export function Loading({ text = "불러오는 중..." }: { text?: string }) {
  return (
    <p className="guild-state muted" role="status">
      {text}
    </p>
  );
}

/** Previous · page n / total · next, as buttons (lists kept in the page's state). */
export function SimplePager({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="guild-pager" aria-label={label}>
      <button type="button" className="btn btn-small btn-ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        이전
      </button>
      <span className="muted">
        {page} / {totalPages}
      </span>
      <button
        type="button"
        className="btn btn-small btn-ghost"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        다음
      </button>
    </nav>
  );
}

/** The two answers to an invitation or an application: yes (`yes` says which) or 거절, both off while one is sent. */
export function YesOrNo({ yes, busy, onAnswer }: { yes: string; busy: boolean; onAnswer: (yes: boolean) => void }) {
  return (
    <div className="guild-actions">
      <button type="button" className="btn btn-primary btn-small" disabled={busy} onClick={() => onAnswer(true)}>
        {yes}
      </button>
      <button type="button" className="btn btn-ghost btn-small" disabled={busy} onClick={() => onAnswer(false)}>
        거절
      </button>
    </div>
  );
}

/** The title and content fields of a guild's posts and recruitment posts; any edit clears the form's notice. */
export function TitleAndContent(props: {
  title: string;
  content: string;
  titleMax: number;
  contentMax?: number;
  rows: number;
  onTitle: (title: string) => void;
  onContent: (content: string) => void;
  onEdit: () => void;
}) {
  const edited = (set: (value: string) => void) => (value: string) => {
    set(value);
    props.onEdit();
  };
  return (
    <>
      <TextField label="제목" value={props.title} maxLength={props.titleMax} onValue={edited(props.onTitle)} />
      <TextAreaField
        label="내용"
        value={props.content}
        rows={props.rows}
        maxLength={props.contentMax}
        onValue={edited(props.onContent)}
      />
    </>
  );
}
