import { useEffect, useState } from "react";
import { api, isApiError } from "../../lib/api";
import { askedRematch, betweenRounds, type RoomState } from "./room-state";
import { initialTexts, type TextsChoice, TextsEditor, textsBody } from "./texts-editor";
import type { PrivateRoomView } from "./types";

const ACTION_FAILED = "요청을 처리하지 못했습니다. 잠시 후 다시 시도해주세요.";

/** An owner's request to the room's routes; answers the server's words when it refuses. */
export async function ownerRequest(
  roomId: number,
  method: "post" | "patch" | "delete",
  path: string,
  body?: unknown,
): Promise<string | null> {
  const url = `/api/rooms/private/${roomId}${path}`;
  try {
    if (method === "delete") await api.delete(url);
    else if (method === "patch") await api.patch(url, body);
    else await api.post(url, body);
    return null;
  } catch (error) {
    return isApiError(error) ? error.detail : ACTION_FAILED;
  }
}

/** The invitation link, for anyone inside to pass on. */
function InviteLink({ privateRoom }: { privateRoom: PrivateRoomView }) {
  const [copied, setCopied] = useState(false);
  const url = `${window.location.origin}${privateRoom.invite_path}`;
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2_000);
    } catch {
      setCopied(false);
    }
  }
  return (
    <div className="invite">
      <label className="invite-field">
        <span className="invite-label">초대 링크</span>
        <input className="input invite-url" readOnly value={url} onFocus={(event) => event.target.select()} />
      </label>
      <button type="button" className="btn btn-small btn-ghost" onClick={copy}>
        {copied ? "복사했어요" : "링크 복사"}
      </button>
    </div>
  );
}

/** The owner's texts for the next rounds: the editor, filled with the room's own sentences when it has them. */
function ChangeTexts({
  roomId,
  privateRoom,
  onDone,
}: {
  roomId: number;
  privateRoom: PrivateRoomView;
  onDone: () => void;
}) {
  const [texts, setTexts] = useState<TextsChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const themed = privateRoom.texts.kind === "theme" ? privateRoom.texts.theme : null;
  // The editor opens with what the room plays now.
  useEffect(() => {
    const controller = new AbortController();
    const start = (lines: string) =>
      setTexts(themed ? { ...initialTexts, mode: "theme", theme: themed, lines } : { ...initialTexts, lines });
    api
      .get<{ texts: string[] }>(`/api/rooms/private/${roomId}/texts`, { signal: controller.signal })
      .then((answer) => start(answer.texts.join("\n")))
      .catch(() => start(""));
    return () => controller.abort();
  }, [roomId, themed]);
  if (!texts) return <p className="muted">문장을 불러오는 중입니다…</p>;
  async function save() {
    const chosen = textsBody(texts!);
    if (!chosen.ok) return setError(chosen.error);
    const refused = await ownerRequest(roomId, "patch", "", chosen.body);
    if (refused) return setError(refused);
    onDone();
  }
  return (
    <div className="private-texts">
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      <TextsEditor value={texts} onChange={setTexts} />
      <p className="muted">새 문장은 다음 라운드부터 나옵니다.</p>
      <div className="private-actions">
        <button type="button" className="btn btn-small btn-primary" onClick={save}>
          문장 저장
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={onDone}>
          취소
        </button>
      </div>
    </div>
  );
}

/** What only the owner has: the next round, automatic rounds, the texts, a new link, closing the room. */
function OwnerControls({
  state,
  roomId,
  privateRoom,
}: {
  state: RoomState;
  roomId: number;
  privateRoom: PrivateRoomView;
}) {
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const act = async (method: "post" | "patch" | "delete", path: string, body?: unknown) =>
    setNotice(await ownerRequest(roomId, method, path, body));
  const ready = state.rematch?.ready.length ?? 0;
  return (
    <>
      <div className="private-actions">
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={!betweenRounds(state)}
          onClick={() => act("post", "/start")}
        >
          {state.results ? "다음 라운드" : "라운드 시작"}
        </button>
        <label className="checkbox private-auto">
          <input
            type="checkbox"
            checked={privateRoom.auto_start}
            onChange={(event) => act("patch", "", { auto_start: event.target.checked })}
          />
          <span>라운드 자동 시작</span>
        </label>
        <button type="button" className="btn btn-small btn-ghost" onClick={() => setEditing((v) => !v)}>
          문장 바꾸기
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={() => act("post", "/code")}>
          새 초대 링크
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost private-close"
          onClick={() => {
            if (window.confirm("방을 닫을까요? 모두 방에서 나가게 됩니다.")) void act("delete", "");
          }}
        >
          방 닫기
        </button>
      </div>
      {ready > 0 && (
        <p className="private-ready" role="status">
          다시 하기를 누른 사람 {ready}/{state.rematch?.players ?? 0}명
        </p>
      )}
      {notice && (
        <p className="notice notice-error" role="alert">
          {notice}
        </p>
      )}
      {editing && <ChangeTexts roomId={roomId} privateRoom={privateRoom} onDone={() => setEditing(false)} />}
    </>
  );
}

/** "다시 하기" for a racer between rounds, with who else asked. */
function Rematch({ state, onRematch }: { state: RoomState; onRematch: () => void }) {
  // After a round only: before the first one there is nothing to play again.
  if (state.spectating || !betweenRounds(state) || !state.results) return null;
  const asked = askedRematch(state);
  const ready = state.rematch?.ready.length ?? 0;
  return (
    <div className="private-actions">
      <button type="button" className="btn btn-small btn-primary" disabled={asked} onClick={onRematch}>
        {asked ? "다시 하기 누름" : "다시 하기"}
      </button>
      <span className="private-ready" role="status">
        {ready > 0
          ? `다시 하기 ${ready}/${state.rematch?.players ?? 0}명`
          : "모두 누르면 바로 다음 라운드가 시작됩니다."}
      </span>
    </div>
  );
}

/**
 * A private room's bar above the stage: its link (for anyone inside to pass on), its owner and how rounds start;
 * the owner's controls, or a racer's "다시 하기" between rounds (README "Private rooms").
 */
export function PrivateRoomBar({
  state,
  roomId,
  owner,
  onRematch,
}: {
  state: RoomState;
  roomId: number;
  owner: boolean;
  onRematch: () => void;
}) {
  const privateRoom = state.privateRoom;
  if (!privateRoom) return null;
  const texts =
    privateRoom.texts.kind === "own" ? `직접 넣은 문장 ${privateRoom.texts.count}개` : privateRoom.texts.label;
  return (
    <section className="private-bar card" aria-label="비공개 방">
      <p className="private-meta">
        <span className="tag tag-private">비공개</span>
        방장 <strong>{privateRoom.owner.username}</strong> · {texts} ·{" "}
        {privateRoom.auto_start ? "라운드 자동 시작" : "방장이 라운드 시작"}
      </p>
      <InviteLink privateRoom={privateRoom} />
      {owner ? (
        <OwnerControls state={state} roomId={roomId} privateRoom={privateRoom} />
      ) : (
        <Rematch state={state} onRematch={onRematch} />
      )}
    </section>
  );
}
