import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { lazy, Suspense, useEffect, useState } from "react";
import { api } from "../../lib/api";
import { currentUserAtom } from "../session/atoms";
import type { PrivateRoomInfo } from "./types";

/** The form (with the texts' rules and editor) loads when a member opens it: the home page stays light. */
const CreatePrivateRoom = lazy(() =>
  import("./private-room-form").then((module) => ({ default: module.CreatePrivateRoom })),
);

/** The member's open private rooms, each with its link. */
function MyPrivateRooms() {
  const [rooms, setRooms] = useState<PrivateRoomInfo[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    api
      .get<{ rooms: PrivateRoomInfo[] }>("/api/rooms/private/mine", { signal: controller.signal })
      .then((answer) => setRooms(answer.rooms))
      .catch(() => setRooms([]));
    return () => controller.abort();
  }, []);
  if (rooms.length === 0) return null;
  return (
    <ul className="private-mine" aria-label="내 비공개 방">
      {rooms.map(({ room, private: link }) => (
        <li key={room.id}>
          <Link to="/r/$code" params={{ code: link.code }} className="private-mine-link">
            {room.name}
          </Link>
          <span className="muted"> · 최대 {room.max_users}명</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The home page's private rooms: a member makes one (or opens one of theirs); a guest learns that logging in lets
 * them make one, and that a friend's link needs no account.
 */
export function PrivateRoomsSection() {
  const user = useAtomValue(currentUserAtom);
  const [creating, setCreating] = useState(false);
  if (!user) {
    return (
      <section className="private-home" aria-label="비공개 방">
        <p className="private-lead">
          친구들과만 겨루고 싶다면 비공개 방을 만들어 초대 링크를 나눠 주세요. <Link to="/login">로그인</Link>
          하면 만들 수 있고, 받은 링크는 로그인하지 않아도 열 수 있습니다.
        </p>
      </section>
    );
  }
  return (
    <section className="private-home" aria-label="비공개 방">
      {creating ? (
        <Suspense fallback={<p className="muted">양식을 불러오는 중입니다…</p>}>
          <CreatePrivateRoom onCancel={() => setCreating(false)} />
        </Suspense>
      ) : (
        <div className="private-home-row">
          <p className="private-lead">친구들끼리만 겨루는 방: 내 문장으로, 초대 링크를 받은 사람만 들어옵니다.</p>
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            비공개 방 만들기
          </button>
        </div>
      )}
      <MyPrivateRooms />
    </section>
  );
}
