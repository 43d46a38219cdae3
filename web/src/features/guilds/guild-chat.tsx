/** The guild room's chat tab: the last 100 lines, IME-safe Enter (spec §5), and the admins' slash commands. */
import { type KeyboardEvent, useLayoutEffect, useRef, useState } from "react";
import { CHAT_MAX } from "../../../../modules/guilds/rules";
import { formatDateTime } from "../../lib/format";
import { isSendingEnter } from "../../ui/answer-box";
import { useIsBlocked } from "../moderation/blocks";
import { excerpt, ReportButton } from "../moderation/report-dialog";
import type { ChatLine } from "./use-guild-room";

const clock = (at: string) => formatDateTime(at).slice(11);

export function GuildChat({
  guildId,
  lines,
  myUserId,
  isAdmin,
  onSend,
}: {
  guildId: number;
  lines: ChatLine[];
  myUserId: number | null;
  isAdmin: boolean;
  onSend: (text: string) => boolean;
}) {
  const [typed, setTyped] = useState("");
  const listRef = useRef<HTMLDivElement>(null);
  const isBlocked = useIsBlocked();
  const shown = lines.filter((line) => line.kind !== "chat" || !isBlocked(line.userId));

  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the lines change on purpose
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);

  function send() {
    if (onSend(typed)) setTyped("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (!isSendingEnter(event)) return;
    event.preventDefault();
    send();
  }

  return (
    <section className="guild-chat" aria-label="길드 채팅">
      <div className="guild-chat-scroll" ref={listRef} aria-live="polite">
        {lines.length === 0 && <p className="muted guild-chat-empty">아직 메시지가 없습니다. 먼저 인사해보세요!</p>}
        <ol className="guild-messages">
          {shown.map((line) => (
            <li
              key={line.key}
              className={`guild-msg guild-msg-${line.kind}${line.userId !== null && line.userId === myUserId ? " guild-msg-mine" : ""}`}
              data-kind={line.kind}
              role={line.kind === "error" ? "alert" : undefined}
            >
              {line.kind === "chat" && (
                <span className="guild-msg-meta">
                  <span className="guild-msg-author">{line.username}</span>
                  <time className="guild-msg-time">{clock(line.at)}</time>
                  {line.messageId !== undefined && (
                    <ReportButton
                      target={{ kind: "guild_chat", guild_id: guildId, line_id: String(line.messageId) }}
                      subject={`${line.username}님의 채팅: "${excerpt(line.text)}"`}
                      authorId={line.userId}
                    />
                  )}
                </span>
              )}
              <span className="guild-msg-text">{line.text}</span>
            </li>
          ))}
        </ol>
      </div>
      {isAdmin && (
        <p className="muted guild-small guild-chat-hint">
          관리자 명령어: <code>/start</code> 게임 시작 · <code>/setcountdown n</code> 시작 카운트다운(1~10초) ·{" "}
          <code>/setendtime n</code> 종료 카운트다운(30~300초)
        </p>
      )}
      <div className="guild-composer">
        <input
          className="input"
          value={typed}
          maxLength={CHAT_MAX}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="메시지를 입력하세요"
          aria-label="메시지 입력"
          autoComplete="off"
          spellCheck={false}
        />
        <button type="button" className="btn btn-primary" onClick={send}>
          전송
        </button>
      </div>
    </section>
  );
}
