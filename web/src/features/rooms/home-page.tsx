import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useEffect, useReducer, useState } from "react";
import { api } from "../../lib/api";
import { connectionStateAtom, socketManager, useSocketEvent } from "../../lib/socket";
import { useDocumentTitle } from "../../lib/title";
import { countdownLeft, isFull, listBadge, occupancy } from "./figures";
import { PrivateRoomsSection } from "./private-rooms-section";
import { initialRoomList, roomListReducer, roomsOf } from "./room-list";
import type { RoomSummary as Room } from "./types";

export const ROOM_LIST_FAILED = "방 목록을 불러오는데 실패했습니다.";

/** The countdown seconds on screen, counting down locally until the next update of this room replaces it. */
function useLiveCountdown(room: Room): number {
  const [now, setNow] = useState(() => performance.now());
  // A new room object is a new update: the count restarts from its figure.
  const [received] = useState(() => new WeakMap<Room, number>());
  if (!received.has(room)) received.set(room, performance.now());
  const counting = room.game_status === "countdown";
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => setNow(performance.now()), 200);
    return () => clearInterval(timer);
  }, [counting]);
  return counting ? countdownLeft(room.countdown_seconds, now - (received.get(room) ?? now)) : room.countdown_seconds;
}

function RoomCard({ room }: { room: Room }) {
  const countdown = useLiveCountdown(room);
  const badge = listBadge({ game_status: room.game_status, countdown_seconds: countdown });
  const full = isFull(room);
  const share = occupancy(room);
  return (
    <li className="room-item">
      <Link to="/rooms/$roomId" params={{ roomId: String(room.id) }} className="room-card" data-room-id={room.id}>
        <div className="room-card-top">
          <h2 className="room-card-name">{room.name}</h2>
          <span className={`badge badge-${badge.tone}`}>{badge.text}</span>
        </div>
        <p className="room-card-desc">{room.description || "자유롭게 타자 실력을 겨뤄보세요."}</p>
        <div className="room-card-foot">
          <span className={`room-card-count${full ? " is-full" : ""}`}>
            <span className="sr-only">참가자</span>
            {room.total_participants}/{room.max_users}명{full && " · 가득 참"}
          </span>
          {room.language && room.language !== "ko" && <span className="tag tag-lang">English</span>}
        </div>
        <div
          className={`progress${full ? " progress-full" : ""}`}
          role="progressbar"
          aria-label="참가 인원"
          aria-valuemin={0}
          aria-valuemax={room.max_users}
          aria-valuenow={room.total_participants}
        >
          <div className="progress-fill" style={{ width: `${share}%` }} />
        </div>
      </Link>
      {/* A link of its own beside the card (one link cannot hold another); always there, so nothing moves. */}
      <Link
        to="/rooms/$roomId"
        params={{ roomId: String(room.id) }}
        search={{ watch: 1 }}
        className="room-watch"
        aria-label={`${room.name} 관전하기`}
      >
        관전하기{room.spectators > 0 && ` · ${room.spectators}명 관전 중`}
      </Link>
    </li>
  );
}

function Skeleton() {
  return (
    <ul className="room-grid" aria-hidden="true">
      {[1, 2, 3, 4, 5, 6].map((n) => (
        <li key={n} className="room-card room-card-skeleton" />
      ))}
    </ul>
  );
}

/** Home: the live room list, from room:list / room:list_update (no polling); GET /api/rooms/ paints first. */
export function HomePage() {
  useDocumentTitle(null);
  const [list, dispatch] = useReducer(roomListReducer, initialRoomList);
  const connected = useAtomValue(connectionStateAtom) === "open";

  useEffect(() => {
    const controller = new AbortController();
    api.get<unknown>("/api/rooms/", { signal: controller.signal }).then(
      (payload) => dispatch({ type: "fetched", rooms: roomsOf(payload) ?? [] }),
      (error) => {
        if ((error as Error)?.name !== "AbortError") dispatch({ type: "fetch_failed" });
      },
    );
    return () => controller.abort();
  }, []);

  useSocketEvent("room:list", (payload: unknown) => {
    const rooms = roomsOf(payload);
    if (rooms) dispatch({ type: "list", rooms });
  });
  useSocketEvent("room:list_update", (payload: unknown) => {
    const rooms = roomsOf(payload);
    if (rooms) dispatch({ type: "update", rooms });
  });
  // The server sends the full list only when asked: on mount and after every reconnect.
  useEffect(() => {
    if (connected) socketManager.emit("get_rooms");
  }, [connected]);

  const players = list.rooms.reduce((sum, room) => sum + room.total_participants, 0);
  return (
    <section className="home">
      <div className="home-hero">
        <div>
          <h1 className="home-title">실시간 타자 방</h1>
          <p className="home-lead">
            방에 들어가면 모두 같은 문장을 받아 동시에 입력해요. 가장 빠르고 정확한 사람이 1등!
            <br className="home-break" /> 로그인하지 않아도 손님으로 바로 참여할 수 있습니다.
          </p>
        </div>
        <p className="home-live" aria-live="polite">
          <span className={`live-dot${connected ? " live-dot-on" : ""}`} aria-hidden="true" />
          {connected ? `지금 ${players}명이 타자 중` : "실시간 연결 중..."}
        </p>
      </div>
      <PrivateRoomsSection />
      {list.status === "failed" && list.rooms.length === 0 && (
        <div className="notice notice-error home-error" role="alert">
          {ROOM_LIST_FAILED}
          <button type="button" className="btn btn-small btn-ghost" onClick={() => window.location.reload()}>
            다시 시도
          </button>
        </div>
      )}
      {list.status === "loading" && <Skeleton />}
      {list.status !== "loading" && list.rooms.length > 0 && (
        <ul className="room-grid">
          {list.rooms.map((room) => (
            <RoomCard key={room.id} room={room} />
          ))}
        </ul>
      )}
      {list.status === "ready" && list.rooms.length === 0 && (
        <p className="muted home-empty">아직 열린 방이 없습니다.</p>
      )}
    </section>
  );
}
