/**
 * Watching a duel on /duel (duel README "Watching"): both sides with their names, ratings and lives, the time, the
 * field live, the result; no word box (a watcher never types); a chat with the duel's other watchers, which its
 * players never see.
 */
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from "react";
import { WATCH_CHAT_MAX_LENGTH } from "../../../../modules/duel/rules";
import { socketManager, useSocketEvent } from "../../lib/socket";
import { isSendingEnter } from "../../ui/answer-box";
import { useIsBlocked } from "../moderation/blocks";
import { excerpt, ReportButton } from "../moderation/report-dialog";
import { DuelField, ResultDetails, SIDE_TEXT } from "./duel-field";
import { type DuelState, type Side, type SideInfo, watchedOutcomeText } from "./duel-state";

/** The watchers' chat keeps this many lines. */
const CHAT_KEPT = 50;

export function WatchView({ state, onLeave }: { state: DuelState; onLeave: () => void }) {
  useWatchAgainOnReconnect(state.sessionId);
  return (
    <section className="duel-play" aria-label="대결 관전">
      <div className="duel-hud">
        <WatchedSide side="red" info={state.sides?.red} lives={state.lives.red} />
        <span className="duel-time">남은 시간 {state.remaining}초</span>
        <WatchedSide side="blue" info={state.sides?.blue} lives={state.lives.blue} />
      </div>
      <DuelField
        state={state}
        overlay={
          state.result && (
            <div className="duel-result" role="dialog" aria-label="대결 결과">
              <h2>{watchedOutcomeText(state.result, state.sides)}</h2>
              <ResultDetails result={state.result} side={null} gone={null} rating={null} />
              <div className="duel-result-actions">
                <button type="button" className="btn btn-primary" onClick={onLeave}>
                  목록으로
                </button>
              </div>
            </div>
          )
        }
      />
      <div className="duel-watch-bar">
        <p className="duel-muted">관전 중입니다. 관전자는 단어를 입력할 수 없고, 관전자끼리만 채팅할 수 있습니다.</p>
        {!state.result && (
          <button type="button" className="btn btn-ghost" onClick={onLeave}>
            관전 종료
          </button>
        )}
      </div>
      {state.sessionId && <WatchChat sessionId={state.sessionId} />}
    </section>
  );
}

/** A new connection is a new socket the server knows nothing of: it asks to watch again (the field comes anew). */
function useWatchAgainOnReconnect(sessionId: string | null) {
  useEffect(() => {
    if (!sessionId) return;
    const socket = socketManager.getSocket();
    const watchAgain = () => socketManager.emit("duel_watch", { session_id: sessionId });
    socket.on("connect", watchAgain);
    return () => {
      socket.off("connect", watchAgain);
    };
  }, [sessionId]);
}

function WatchedSide({ side, info, lives }: { side: Side; info: SideInfo | undefined; lives: number }) {
  const rating = info?.rating === null || info?.rating === undefined ? "손님" : `레이팅 ${info.rating}`;
  return (
    <span className={`duel-side ${side}`}>
      {SIDE_TEXT[side]} {info?.nickname} ({rating}) ♥ {lives}
    </span>
  );
}

interface ChatLine {
  key: string;
  nickname: string;
  message: string;
  kind: "chat" | "error";
  /** A watcher's line: its id and author's public key (`u_<id>` for a member), for a report (moderation). */
  lineId?: string;
  sid?: string;
}

/** A member's id from their public key (`u_<id>`); null for a guest (`g_…`), who cannot be reported. */
const memberOf = (sid: string | undefined) => (sid?.startsWith("u_") ? Number(sid.slice(2)) : null);

/** The watchers' chat of one duel: IME-safe Enter, refusals shown in the list. */
function WatchChat({ sessionId }: { sessionId: string }) {
  const [lines, setLines] = useState<ChatLine[]>([]);
  const [typed, setTyped] = useState("");
  const listRef = useRef<HTMLOListElement>(null);
  const add = (line: ChatLine) => setLines((current) => [...current, line].slice(-CHAT_KEPT));
  const isBlocked = useIsBlocked();

  useSocketEvent("duel:watch_chat", (p) => {
    if (p.session_id !== sessionId) return;
    const key = `${p.timestamp}:${p.sid}:${Math.random()}`;
    add({ key, nickname: p.nickname, message: p.message, kind: "chat", lineId: p.line_id, sid: p.sid });
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the lines change on purpose
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [lines]);

  const send = () => {
    const message = typed.trim();
    if (!message) return;
    setTyped("");
    socketManager.emit("duel_watch_chat", { message }, (reply) => {
      if (reply && !reply.success)
        add({ key: `error:${Date.now()}`, nickname: "", message: reply.error, kind: "error" });
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!isSendingEnter(event)) return;
    event.preventDefault();
    send();
  };

  return (
    <section className="duel-panel duel-watch-chat" aria-labelledby="duel-watch-chat-title">
      <h2 id="duel-watch-chat-title">관전자 채팅</h2>
      <ol className="duel-chat-lines" ref={listRef} aria-live="polite">
        {lines.length === 0 && (
          <li className="duel-muted">관전자끼리 나누는 채팅입니다. 선수에게는 보이지 않습니다.</li>
        )}
        {lines
          .filter((line) => !isBlocked(memberOf(line.sid)))
          .map((line) => (
            <li
              key={line.key}
              className={`duel-chat-line ${line.kind}`}
              role={line.kind === "error" ? "alert" : undefined}
            >
              {line.kind === "chat" && <strong>{line.nickname}</strong>} {line.message}
              {line.lineId && memberOf(line.sid) !== null && (
                <ReportButton
                  target={{ kind: "duel_chat", session_id: sessionId, line_id: line.lineId }}
                  subject={`${line.nickname}님의 채팅: "${excerpt(line.message)}"`}
                  authorId={memberOf(line.sid)}
                />
              )}
            </li>
          ))}
      </ol>
      <div className="duel-chat-form">
        <input
          className="input"
          value={typed}
          maxLength={WATCH_CHAT_MAX_LENGTH}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="관전자에게 보낼 메시지"
          aria-label="관전자 채팅 입력"
          autoComplete="off"
          spellCheck={false}
        />
        <button type="button" className="btn btn-primary" onClick={send}>
          보내기
        </button>
      </div>
    </section>
  );
}
