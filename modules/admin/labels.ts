/**
 * Korean names of the admin log's actions and a one-line reading of an entry's details, shared by the CLI and
 * the web console (pure: no imports). An action missing here is shown raw (spec part 2 §3).
 */
export const ACTION_LABELS: Record<string, string> = {
  view_users: "사용자 목록 조회",
  view_user: "사용자 정보 조회",
  update_username: "사용자명 변경",
  activate_user: "계정 활성화",
  deactivate_user: "계정 비활성화",
  require_password_reset: "비밀번호 재설정 요구",
  grant_admin: "관리자 권한 부여",
  revoke_admin: "관리자 권한 해제",
  issue_reset_link: "비밀번호 재설정 링크 발급",
  delete_post: "게시글 삭제",
  delete_comment: "댓글 삭제",
  create_room: "방 만들기",
  import_sentences: "문장 가져오기",
  // The moderation module's actions on reports (modules/moderation README "Actions").
  report_dismiss: "신고 기각",
  report_delete_content: "신고된 내용 삭제",
  mute_user: "채팅·글쓰기 제한",
  suspend_user: "이용 정지",
  exclude_from_rankings: "랭킹 제외",
  warn_user: "경고",
  lift_restriction: "제재 해제",
  profanity_add: "금칙어 추가",
  profanity_remove: "금칙어 빼기",
};

export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;

const DETAIL_LABELS: Record<string, string> = {
  reason: "사유",
  search: "검색",
  search_username: "사용자명 검색",
  is_active: "활성 여부",
  page: "쪽",
  views: "조회 횟수",
  title: "제목",
  post_id: "게시글",
  comment_id: "댓글",
  excerpt: "내용",
  report_id: "신고",
  reports: "함께 처리한 신고",
  target: "대상",
  duration: "기간",
  until: "끝",
  message: "경고 문구",
  restriction_id: "제재",
  kind: "종류",
  word: "단어",
};

/** `이전 → 새 이름 (사유: …)` for a rename, `label: value` pairs otherwise; text that is not JSON is kept. */
export function describeDetails(details: string | null | undefined): string {
  if (!details) return "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return details;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return details;
  const { old_username, new_username, ...rest } = parsed as Record<string, unknown>;
  const parts: string[] = [];
  if (old_username !== undefined || new_username !== undefined)
    parts.push(`${old_username ?? "?"} → ${new_username ?? "?"}`);
  for (const [key, value] of Object.entries(rest)) {
    const text = typeof value === "boolean" ? (value ? "예" : "아니오") : String(value);
    parts.push(`${DETAIL_LABELS[key] ?? key}: ${text}`);
  }
  return parts.join(", ");
}
