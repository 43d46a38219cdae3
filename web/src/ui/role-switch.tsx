/**
 * Watching or playing a live game (a typing room, a guild room): the page's role lives in its URL's `?watch=1`
 * (`watch-search.ts`), so a link can open the page as a watcher and a reload keeps the role. The switch only
 * changes the URL (replacing the entry: no history step per switch); the page reads the parameter and joins with
 * that role.
 */
import { useNavigate } from "@tanstack/react-router";

/**
 * "관전 중" with `watchingText` and 참가하기 (the parameter dropped) while `watching`, otherwise 관전하기 (the
 * parameter set).
 */
export function RoleSwitch({ watching, watchingText }: { watching: boolean; watchingText: string }) {
  const navigate = useNavigate();
  const switchTo = (watch: boolean) =>
    void navigate({ to: ".", search: (prev) => ({ ...prev, watch: watch ? 1 : undefined }), replace: true });
  if (watching) {
    return (
      <div className="role-bar role-watching" role="status">
        <span className="role-label">관전 중</span>
        <span className="role-text">{watchingText}</span>
        <button type="button" className="btn btn-small btn-primary" onClick={() => switchTo(false)}>
          참가하기
        </button>
      </div>
    );
  }
  return (
    <div className="role-bar">
      <button type="button" className="btn btn-small btn-ghost" onClick={() => switchTo(true)}>
        관전하기
      </button>
    </div>
  );
}
