import { type KeyboardEvent, memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { isSendingEnter } from "../../ui/answer-box";
import { useIsBlocked } from "../moderation/blocks";
import { excerpt, ReportButton } from "../moderation/report-dialog";
import { ProblemTimer } from "./game-panel";
import { BulbIcon, FlagIcon } from "./icons";
import { ResultsList } from "./results-list";
import type { ChatEntry } from "./room-state";

/** Auto-scroll follows new messages only while the reader is within this many pixels of the bottom (spec §9). */
export const BOTTOM_THRESHOLD_PX = 50;
/** The scroll-to-top button appears beyond this scroll offset (spec §9). */
export const TOP_BUTTON_AFTER_PX = 500;
export const TIP_KEY = "tajamadang:room-tip-shown";
const TIP_MS = 5_000;
const CHAT_MAX = 200;

/** HH:mm in Seoul time, like every other date in the app. */
const clock = (at: number) => formatDateTime(at).slice(11);

function Entry({ entry, mySessionId, roomId }: { entry: ChatEntry; mySessionId: string | null; roomId?: number }) {
  switch (entry.kind) {
    case "problem":
      return (
        <li className={`msg msg-problem${entry.finalized ? " msg-finalized" : " msg-current"}`} data-kind="problem">
          <div className="msg-problem-head">
            <span className="msg-problem-label">{entry.finalized ? "지난 문제" : "문제"}</span>
            {!entry.finalized && entry.startLocal !== undefined && entry.durationMs !== undefined && (
              <ProblemTimer
                compact
                timing={{
                  startLocal: entry.startLocal,
                  durationMs: entry.durationMs,
                  endLocal: entry.startLocal + entry.durationMs,
                }}
              />
            )}
          </div>
          <p className="msg-problem-text" lang="ko">
            {entry.text}
          </p>
        </li>
      );
    case "result":
      return (
        <li className="msg msg-result" data-kind="result">
          <span className="msg-result-title">
            <FlagIcon />
            게임 결과
          </span>
          {entry.results && entry.results.length > 0 ? (
            <ResultsList results={entry.results} mySessionId={mySessionId} compact />
          ) : (
            <p className="msg-text">{entry.text}</p>
          )}
        </li>
      );
    case "system":
      return (
        <li className={`msg msg-system${entry.fading ? " msg-fading" : ""}`} data-kind="system">
          {entry.text}
        </li>
      );
    case "error":
      return (
        <li
          className={`msg msg-error${entry.fading ? " msg-fading" : ""}`}
          role="alert"
          data-kind="error"
          data-at={entry.at}
        >
          {entry.text}
        </li>
      );
    default: {
      const mine = entry.sessionId !== null && entry.sessionId === mySessionId;
      return (
        <li className={`msg msg-chat${mine ? " msg-mine" : ""}`} data-kind="chat">
          <span className="msg-meta">
            <span className="msg-author">{entry.author}</span>
            {entry.isAnonymous && <span className="tag tag-anon">익명</span>}
            <time className="msg-time">{clock(entry.at)}</time>
            {roomId !== undefined && entry.lineId && entry.userId != null && !mine && (
              <ReportButton
                target={{ kind: "room_chat", room_id: roomId, line_id: entry.lineId }}
                subject={`${entry.author}님의 채팅: "${excerpt(entry.text)}"`}
                authorId={entry.userId}
              />
            )}
          </span>
          <span className="msg-text">{entry.text}</span>
        </li>
      );
    }
  }
}

const Messages = memo(function Messages({
  messages,
  mySessionId,
  roomId,
}: {
  messages: ChatEntry[];
  mySessionId: string | null;
  roomId?: number;
}) {
  // A blocked member's lines are not shown (moderation's blocks); everything else is.
  const isBlocked = useIsBlocked();
  return (
    <ol className="messages">
      {messages
        .filter((entry) => entry.kind !== "chat" || !isBlocked(entry.userId))
        .map((entry) => (
          <Entry key={entry.id} entry={entry} mySessionId={mySessionId} roomId={roomId} />
        ))}
    </ol>
  );
});

/** The one-time tip (shown for 5 s, remembered in localStorage). */
function useOneTimeTip(): [boolean, () => void] {
  // Decided once per mount, so React's development double effect still hides the tip after 5 s.
  const [visible, setVisible] = useState(() => {
    try {
      return !localStorage.getItem(TIP_KEY);
    } catch {
      return false;
    }
  });
  useEffect(() => {
    if (!visible) return;
    try {
      localStorage.setItem(TIP_KEY, "1");
    } catch {}
    const timer = setTimeout(() => setVisible(false), TIP_MS);
    return () => clearTimeout(timer);
  }, [visible]);
  return [visible, () => setVisible(false)];
}

export function ChatPanel({
  messages,
  mySessionId,
  roomId,
  answering,
  typed,
  onType,
  onSend,
  disabled,
}: {
  messages: ChatEntry[];
  mySessionId: string | null;
  /** The room whose lines a member may report. */
  roomId?: number;
  answering: boolean;
  typed: string;
  onType: (value: string) => void;
  onSend: (value: string) => boolean;
  disabled: boolean;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const nearBottom = useRef(true);
  const [autoScroll, setAutoScroll] = useState(true);
  const [showTop, setShowTop] = useState(false);
  const [tipVisible, hideTip] = useOneTimeTip();

  const onScroll = useCallback(() => {
    const el = listRef.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_THRESHOLD_PX;
    setShowTop(el.scrollTop > TOP_BUTTON_AFTER_PX);
  }, []);

  // New messages scroll into view only when the reader had not scrolled up to read older ones.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the messages change on purpose
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el && autoScroll && nearBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages, autoScroll]);

  useEffect(() => {
    if (answering) inputRef.current?.focus();
  }, [answering]);

  function toggleAutoScroll(on: boolean) {
    setAutoScroll(on);
    if (on && listRef.current) {
      nearBottom.current = true;
      listRef.current.scrollTop = listRef.current.scrollHeight;
    }
  }

  function send() {
    if (onSend(typed)) onType("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // The Enter that ends a Hangul composition belongs to the IME, not to us (spec §5).
    if (!isSendingEnter(event)) return;
    event.preventDefault();
    send();
  }

  return (
    <section className="chat card" aria-label="채팅">
      <div className="chat-scroll" ref={listRef} onScroll={onScroll} aria-live="polite">
        <Messages messages={messages} mySessionId={mySessionId} roomId={roomId} />
        {messages.length === 0 && <p className="chat-empty muted">아직 메시지가 없습니다. 먼저 인사해보세요!</p>}
      </div>
      {showTop && (
        <button
          type="button"
          className="chat-top"
          aria-label="맨 위로"
          onClick={() => listRef.current?.scrollTo({ top: 0, behavior: "smooth" })}
        >
          ↑
        </button>
      )}
      {tipVisible && (
        <div className="chat-tip" role="note">
          <BulbIcon className="chat-tip-icon" />
          <span>
            문장이 나오면 입력창에 그대로 입력하고 <kbd>Enter</kbd>를 누르세요. 빠르고 정확할수록 높은 순위!
          </span>
          <button type="button" className="chat-tip-close" aria-label="팁 닫기" onClick={hideTip}>
            ×
          </button>
        </div>
      )}
      <div className="composer">
        <label className="checkbox composer-autoscroll">
          <input type="checkbox" checked={autoScroll} onChange={(e) => toggleAutoScroll(e.target.checked)} />
          자동 스크롤
        </label>
        <div className={`composer-row${answering ? " composer-answering" : ""}`}>
          <input
            ref={inputRef}
            className="input composer-input"
            value={typed}
            maxLength={CHAT_MAX}
            onChange={(e) => onType(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder={answering ? "제시된 문장을 입력하고 Enter" : "메시지를 입력하세요"}
            aria-label={answering ? "답 입력" : "메시지 입력"}
            autoComplete="off"
            autoCorrect="off"
            spellCheck={false}
            disabled={disabled}
          />
          <button type="button" className="btn btn-primary composer-send" onClick={send} disabled={disabled}>
            {answering ? "제출" : "전송"}
          </button>
        </div>
      </div>
    </section>
  );
}
