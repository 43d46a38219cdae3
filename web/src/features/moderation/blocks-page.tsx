/**
 * /profile/blocks: the members the signed-in member blocked (name, when), each with its unblock button (modules/
 * moderation README "Blocks"). Linked from the profile's 기본 정보 tab; login required (the route's guard, and the
 * server answers 401 anyway). Unblocking shows that member's chat and posts again at once on every page.
 */
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { isApiError } from "../../lib/api";
import { formatDateTime } from "../../lib/format";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { setBlock, showBlocked } from "./blocks";
import { type BlockedMember, moderationApi } from "./moderation-api";

export const BLOCKS_PAGE_TITLE = "차단한 사용자";

/** The server's Korean text (ApiError's detail is always readable, "cannot reach" included), else the page's. */
const why = (failure: unknown, fallback: string) => (isApiError(failure) ? failure.detail : fallback);

export function BlocksPage() {
  useDocumentTitle(BLOCKS_PAGE_TITLE);
  const [blocks, setBlocks] = useState<BlockedMember[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    moderationApi.blocks(controller.signal).then(
      (answer) => setBlocks(answer.blocks),
      (failure) => {
        if ((failure as Error)?.name !== "AbortError") setError(why(failure, "차단 목록을 불러오지 못했습니다."));
      },
    );
    return () => controller.abort();
  }, []);

  async function unblock(member: BlockedMember) {
    setBusy(member.user_id);
    setError(null);
    try {
      await setBlock(member.user_id, false);
      showBlocked(member.user_id, false);
      setBlocks((list) => list?.filter((other) => other.user_id !== member.user_id) ?? null);
      setDone(`${member.username}님의 차단을 풀었습니다. 이제 이 사용자의 채팅과 글이 보입니다.`);
    } catch (failure) {
      setError(why(failure, "차단을 풀지 못했습니다."));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="profile-page">
      <h1 className="profile-title">{BLOCKS_PAGE_TITLE}</h1>
      <p className="profile-muted">
        차단한 사용자의 채팅과 글은 내게 보이지 않습니다. 상대에게는 알리지 않으며, 상대는 내 글을 그대로 봅니다.
      </p>
      <ErrorNotice text={error} />
      <section className="profile-card" aria-labelledby="blocks-list-title">
        <h2 id="blocks-list-title">차단 목록{blocks ? ` ${blocks.length}명` : ""}</h2>
        {/* Always in the page, so the live region is known before it first speaks. */}
        <p className="blocks-done" role="status">
          {done}
        </p>
        {!blocks && !error && <p className="profile-muted">불러오는 중…</p>}
        {blocks && blocks.length === 0 && <p className="profile-muted">차단한 사용자가 없습니다.</p>}
        {blocks && blocks.length > 0 && (
          <div className="profile-table-wrap">
            <table className="profile-table blocks-table">
              <caption className="sr-only">차단한 사용자 목록</caption>
              <thead>
                <tr>
                  <th scope="col">사용자</th>
                  <th scope="col">차단한 때</th>
                  <th scope="col">
                    <span className="sr-only">차단 풀기</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {blocks.map((member) => (
                  <tr key={member.user_id}>
                    <td>{member.username}</td>
                    <td>{formatDateTime(member.created_at)}</td>
                    <td className="blocks-action">
                      <button
                        type="button"
                        className="btn btn-ghost btn-small"
                        aria-label={`${member.username} 차단 풀기`}
                        disabled={busy === member.user_id}
                        onClick={() => void unblock(member)}
                      >
                        차단 풀기
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <p>
        <Link to="/profile" className="btn btn-ghost">
          프로필로 돌아가기
        </Link>
      </p>
    </div>
  );
}
