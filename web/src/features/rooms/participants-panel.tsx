import { type ReactNode, useState } from "react";
import { ReportButton } from "../moderation/report-dialog";
import type { Room } from "./types";

/** Someone listed in the panel, as the owner's actions name them. */
export interface ListedPlayer {
  sessionId: string;
  /** A member's id; null for a guest. */
  userId: number | null;
  name: string;
}

function Medals({ gold, silver, bronze }: { gold: number; silver: number; bronze: number }) {
  return (
    <span className="p-medals" role="img" aria-label={`금메달 ${gold}개, 은메달 ${silver}개, 동메달 ${bronze}개`}>
      <span className="medal medal-gold">
        <span className="medal-dot" aria-hidden="true" />
        {gold}
      </span>
      <span className="medal medal-silver">
        <span className="medal-dot" aria-hidden="true" />
        {silver}
      </span>
      <span className="medal medal-bronze">
        <span className="medal-dot" aria-hidden="true" />
        {bronze}
      </span>
    </span>
  );
}

/**
 * Members with level and medals, then guests with the "익명" tag; a side panel on desktop, folded on phones.
 * `actions`: what the viewer may do to each other player (a private room's owner: remove, hand over).
 */
export function ParticipantsPanel({
  room,
  mySessionId,
  actions,
}: {
  room: Room | null;
  mySessionId: string | null;
  actions?: (player: ListedPlayer) => ReactNode;
}) {
  const actionsOf = (player: ListedPlayer) =>
    actions && player.sessionId !== mySessionId ? <span className="p-actions">{actions(player)}</span> : null;
  const [open, setOpen] = useState(false);
  const users = room?.users ?? [];
  const guests = room?.anonymous_users ?? [];
  const total = users.length + guests.length;
  // Spectators are counted apart and never listed (modules/rooms README "Spectators").
  const watching = room?.spectators ?? 0;
  return (
    <aside className={`participants card${open ? " participants-open" : ""}`} aria-label="참가자">
      <button
        type="button"
        className="participants-toggle"
        aria-expanded={open}
        aria-controls="participants-list"
        onClick={() => setOpen((v) => !v)}
      >
        <span>
          참가자 <strong>{total}</strong>명{watching > 0 && ` · 관전 ${watching}명`}
        </span>
        <span className="participants-chevron" aria-hidden="true" />
      </button>
      <h2 className="participants-title">
        참가자 <span className="muted">{total}명</span>
        {watching > 0 && <span className="muted participants-watching">관전 {watching}명</span>}
      </h2>
      <ul className="participants-list" id="participants-list">
        {users.map((u) => (
          <li key={u.session_id} className="participant">
            <span className="p-avatar" aria-hidden="true">
              {u.username.slice(0, 1)}
            </span>
            <span className="p-main">
              <span className="p-name">
                {u.username}
                {u.session_id === mySessionId && <span className="tag tag-me">나</span>}
              </span>
              <span className="p-sub">
                <span className="p-level">Lv.{u.level}</span>
                <Medals gold={u.gold_medals} silver={u.silver_medals} bronze={u.bronze_medals} />
                {u.session_id !== mySessionId && (
                  <ReportButton
                    target={{ kind: "player", user_id: u.id }}
                    subject={`플레이어 ${u.username}`}
                    authorId={u.id}
                  />
                )}
              </span>
            </span>
            {actionsOf({ sessionId: u.session_id, userId: u.id, name: u.username })}
          </li>
        ))}
        {guests.map((g) => (
          <li key={g.session_id} className="participant participant-guest">
            <span className="p-avatar p-avatar-guest" aria-hidden="true">
              ?
            </span>
            <span className="p-main">
              <span className="p-name">
                {g.nickname}
                {g.session_id === mySessionId && <span className="tag tag-me">나</span>}
              </span>
              <span className="p-sub">
                <span className="tag tag-anon">익명</span>
              </span>
            </span>
            {actionsOf({ sessionId: g.session_id, userId: null, name: g.nickname })}
          </li>
        ))}
        {total === 0 && <li className="participants-empty muted">아직 아무도 없습니다.</li>}
      </ul>
    </aside>
  );
}
