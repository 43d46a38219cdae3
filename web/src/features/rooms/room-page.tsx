import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { connectionStateAtom } from "../../lib/socket";
import { useDocumentTitle } from "../../lib/title";
import { RoleSwitch } from "../../ui/role-switch";
import { ChatPanel } from "./chat-panel";
import { GamePanel } from "./game-panel";
import { DoorIcon, SearchIcon } from "./icons";
import { ParticipantsPanel } from "./participants-panel";
import { RoomHeader } from "./room-header";
import { canAnswer, roundSentenceId } from "./room-state";
import { type RoomFailure, useRoom } from "./use-room";

export const ROOM_NOT_FOUND = "방을 찾을 수 없습니다.";

function RoomUnavailable({ failure }: { failure: RoomFailure }) {
  const text = failure.kind === "not_found" ? ROOM_NOT_FOUND : failure.message;
  return (
    <section className="page page-narrow room-unavailable">
      <p className="room-unavailable-icon" aria-hidden="true">
        {failure.kind === "not_found" ? <SearchIcon /> : <DoorIcon />}
      </p>
      <h1 className="page-title">{text}</h1>
      <p className="muted">
        {failure.kind === "not_found"
          ? "주소가 잘못되었거나 사라진 방입니다."
          : "다른 방에 입장하거나 잠시 후 다시 시도해주세요."}
      </p>
      <Link to="/" className="btn btn-primary">
        방 목록으로
      </Link>
    </section>
  );
}

/**
 * The typing room (spec part 1 §2 "Room"). Keyed by room id by the route, so a new room starts fresh; `spectate`
 * (`?watch=1`) enters it as a spectator.
 */
export function RoomPage({ roomId, spectate = false }: { roomId: string; spectate?: boolean }) {
  const id = /^[1-9][0-9]{0,9}$/.test(roomId) ? Number(roomId) : Number.NaN;
  const [typed, setTyped] = useState("");
  // A refused line comes back into the input, unless something new has been typed there since.
  const { state, failure, send, progress } = useRoom(id, {
    onRefused: (text) => setTyped((now) => now || text),
    spectate,
  });
  const connected = useAtomValue(connectionStateAtom) === "open";
  // A new round starts with an empty box: what was left there (a refused answer, a half-typed line) would
  // otherwise be sent in front of the honest answer.
  const round = roundSentenceId(state);
  useEffect(() => {
    if (round !== null) setTyped("");
  }, [round]);
  useDocumentTitle(failure ? ROOM_NOT_FOUND : (state.room?.name ?? "타자 방"));

  if (failure) return <RoomUnavailable failure={failure} />;
  const answering = canAnswer(state);
  return (
    <div className="room">
      <RoomHeader room={state.room} status={state.game?.status ?? null} />
      <div className="room-body">
        <ParticipantsPanel room={state.room} mySessionId={state.sessionId} />
        <div className="room-main">
          <RoleSwitch watching={spectate} watchingText="입력 없이 경주를 지켜보는 중입니다." />
          <GamePanel state={state} typed={answering ? typed : ""} />
          <ChatPanel
            messages={state.messages}
            mySessionId={state.sessionId}
            answering={answering}
            typed={typed}
            onType={(text) => {
              setTyped(text);
              progress(text);
            }}
            onSend={send}
            disabled={!connected || !state.joined}
          />
        </div>
      </div>
    </div>
  );
}
