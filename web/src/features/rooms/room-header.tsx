import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { connectionStateAtom } from "../../lib/socket";
import { isFull, STATUS_LABEL } from "./figures";
import { UsersIcon } from "./icons";
import type { GameStatus, Room } from "./types";

/** Room name, occupants/max, the connection indicator and the game status badge (spec §2 "Room"). */
export function RoomHeader({ room, status }: { room: Room | null; status: GameStatus | null }) {
  const connected = useAtomValue(connectionStateAtom) === "open";
  return (
    <header className="room-header card">
      <div className="room-heading">
        <Link to="/" className="room-back" aria-label="방 목록으로">
          <span aria-hidden="true">‹</span>
        </Link>
        <h1 className="room-name">{room?.name ?? "타자 방"}</h1>
        {status && <span className={`badge status-${status}`}>{STATUS_LABEL[status]}</span>}
      </div>
      <div className="room-meta">
        {room && (
          <span className={`room-occupants${isFull(room) ? " is-full" : ""}`} title="참가자 수">
            <UsersIcon label="참가자" />
            {room.total_participants}/{room.max_users}
          </span>
        )}
        <span className={`conn ${connected ? "conn-on" : "conn-off"}`} role="status">
          <span className="conn-dot" aria-hidden="true" />
          {connected ? "연결됨" : "연결 안 됨"}
        </span>
      </div>
    </header>
  );
}
