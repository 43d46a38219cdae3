import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { connectionStateAtom } from "../../lib/socket";
import { useDocumentTitle } from "../../lib/title";
import { RoleSwitch } from "../../ui/role-switch";
import { currentUserAtom } from "../session/atoms";
import { ChatPanel } from "./chat-panel";
import { GamePanel } from "./game-panel";
import { DoorIcon, SearchIcon } from "./icons";
import { type ListedPlayer, ParticipantsPanel } from "./participants-panel";
import { ownerRequest, PrivateRoomBar } from "./private-room-bar";
import { RoomHeader } from "./room-header";
import { canAnswer, isOwner, roundSentenceId } from "./room-state";
import { type RoomFailure, useRoom } from "./use-room";

export const ROOM_NOT_FOUND = "방을 찾을 수 없습니다.";

const UNAVAILABLE_NOTE: Record<RoomFailure["kind"], string> = {
  not_found: "주소가 잘못되었거나 사라진 방입니다.",
  full: "다른 방에 입장하거나 잠시 후 다시 시도해주세요.",
  gone: "다른 방에서 계속 겨뤄 보세요.",
};

export function RoomUnavailable({ failure }: { failure: RoomFailure }) {
  const text = failure.kind === "not_found" ? ROOM_NOT_FOUND : failure.message;
  return (
    <section className="page page-narrow room-unavailable">
      <p className="room-unavailable-icon" aria-hidden="true">
        {failure.kind === "not_found" ? <SearchIcon /> : <DoorIcon />}
      </p>
      <h1 className="page-title">{text}</h1>
      <p className="muted">{UNAVAILABLE_NOTE[failure.kind]}</p>
      <Link to="/" className="btn btn-primary">
        방 목록으로
      </Link>
    </section>
  );
}

/** A private room's owner's actions on another player: remove anyone, hand the room over to a member. */
function ownerActions(roomId: number, report: (text: string) => void) {
  const act = async (path: string, body: unknown, done: string) =>
    report((await ownerRequest(roomId, "post", path, body)) ?? done);
  return (player: ListedPlayer) => (
    <>
      <button
        type="button"
        className="btn btn-ghost p-action"
        onClick={() => act("/remove", { session_id: player.sessionId }, `${player.name}님을 내보냈습니다.`)}
      >
        내보내기<span className="sr-only"> {player.name}</span>
      </button>
      {player.userId !== null && (
        <button
          type="button"
          className="btn btn-ghost p-action"
          onClick={() => act("/owner", { user_id: player.userId }, `${player.name}님에게 방장을 넘겼습니다.`)}
        >
          방장 넘기기<span className="sr-only"> {player.name}</span>
        </button>
      )}
    </>
  );
}

export interface RoomPageProps {
  roomId: string;
  spectate?: boolean;
  /** A private room's invitation code (its page is `/r/{code}`). */
  code?: string;
  /** The owner made a new code while the player is inside. */
  onCodeChange?: (code: string) => void;
}

/**
 * The typing room (spec part 1 §2 "Room"). Keyed by room id by the route, so a new room starts fresh; `spectate`
 * (`?watch=1`) enters it as a spectator; `code` makes it a private room's page (README "Private rooms").
 */
export function RoomPage({ roomId, spectate = false, code, onCodeChange }: RoomPageProps) {
  const id = /^[1-9][0-9]{0,9}$/.test(roomId) ? Number(roomId) : Number.NaN;
  const [typed, setTyped] = useState("");
  const [ownerNotice, setOwnerNotice] = useState<string | null>(null);
  const me = useAtomValue(currentUserAtom);
  // A refused line comes back into the input, unless something new has been typed there since.
  const { state, failure, send, progress, rematch } = useRoom(id, {
    onRefused: (text) => setTyped((now) => now || text),
    spectate,
    code,
    onCodeChange,
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
  const owner = isOwner(state, me?.id);
  return (
    <div className="room">
      <RoomHeader room={state.room} status={state.game?.status ?? null} />
      <div className="room-body">
        <ParticipantsPanel
          room={state.room}
          mySessionId={state.sessionId}
          actions={owner ? ownerActions(id, setOwnerNotice) : undefined}
        />
        <div className="room-main">
          <RoleSwitch watching={spectate} watchingText="입력 없이 경주를 지켜보는 중입니다." />
          <PrivateRoomBar state={state} roomId={id} owner={owner} onRematch={rematch} />
          {ownerNotice && (
            <p className="notice notice-info private-notice" role="status">
              {ownerNotice}
            </p>
          )}
          <GamePanel
            state={state}
            typed={answering ? typed : ""}
            waitingText={state.privateRoom && !state.privateRoom.auto_start ? waitingForOwner(owner) : undefined}
          />
          <ChatPanel
            messages={state.messages}
            mySessionId={state.sessionId}
            roomId={id}
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

/** A private room waiting for its owner's start (when the owner is away, rounds start by themselves). */
const waitingForOwner = (owner: boolean) =>
  owner ? "위의 시작 버튼을 누르면 카운트다운이 시작됩니다." : "방장이 라운드를 시작하면 문장이 나옵니다.";
