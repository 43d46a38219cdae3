import { useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { INVITE_CODE, PRIVATE_MSG } from "../../../../modules/rooms/private-rules";
import { api, isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { RoomPage, RoomUnavailable } from "./room-page";
import type { Room } from "./types";
import type { RoomFailure } from "./use-room";

type Resolved = { roomId: string } | { failure: RoomFailure };

/**
 * A private room's link, `/r/{code}` (README "Private rooms"): the code is resolved to its room, which is then
 * entered with it (anyone with the link, guests too; `?watch=1` to watch). When the owner makes a new code while
 * the player is inside, the address follows it, so a reload still opens the room.
 */
export function PrivateRoomPage({ code, spectate = false }: { code: string; spectate?: boolean }) {
  const navigate = useNavigate();
  const [resolved, setResolved] = useState<Resolved | null>(null);
  /** Codes of the room on screen (its link's, and each new one it announced): no need to look them up again. */
  const codesOfRoom = useRef(new Set<string>());

  useEffect(() => {
    if (codesOfRoom.current.has(code)) return;
    codesOfRoom.current.clear();
    if (!INVITE_CODE.test(code)) return setResolved({ failure: { kind: "gone", message: PRIVATE_MSG.notFound } });
    const controller = new AbortController();
    api.get<{ room: Room }>(`/api/rooms/invite/${code}`, { signal: controller.signal }).then(
      (info) => {
        codesOfRoom.current.add(code);
        setResolved({ roomId: String(info.room.id) });
      },
      (error) => {
        if (controller.signal.aborted) return;
        const message = isApiError(error) && error.status === 404 ? PRIVATE_MSG.notFound : error.detail;
        setResolved({ failure: { kind: "gone", message: message ?? PRIVATE_MSG.notFound } });
      },
    );
    return () => controller.abort();
  }, [code]);

  if (!resolved) return <Finding />;
  if ("failure" in resolved) return <PrivateUnavailable failure={resolved.failure} />;
  const followCode = (next: string) => {
    codesOfRoom.current.add(next);
    void navigate({ to: "/r/$code", params: { code: next }, search: spectate ? { watch: 1 } : {}, replace: true });
  };
  return (
    <RoomPage
      key={resolved.roomId}
      roomId={resolved.roomId}
      code={code}
      spectate={spectate}
      onCodeChange={followCode}
    />
  );
}

function Finding() {
  useDocumentTitle("비공개 방");
  return (
    <section className="page page-narrow room-unavailable">
      <p className="muted">초대받은 방을 찾는 중입니다. 잠시만 기다려 주세요.</p>
    </section>
  );
}

function PrivateUnavailable({ failure }: { failure: RoomFailure }) {
  useDocumentTitle("비공개 방");
  return <RoomUnavailable failure={failure} />;
}
