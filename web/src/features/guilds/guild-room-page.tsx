/**
 * /guilds/{guildId}/room (spec §2 "Guild room"): two tabs, the guild chat and the guild game, the member list, and
 * for guild admins the settings, problems and invite panels. A non-numeric id shows "잘못된 길드 ID입니다."; a
 * non-member is refused by the server's join; a member removed meanwhile (kicked, left, disbanded) leaves at once.
 * `?watch=1` enters the room watching the game (`ui/watch-search.ts`); the page is not remounted when it changes.
 */
import { Link, useParams, useSearch } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { GUILD_MSG } from "../../../../modules/guilds/rules";
import { connectionStateAtom } from "../../lib/socket";
import { useDocumentTitle } from "../../lib/title";
import type { WatchSearch } from "../../ui/watch-search";
import { currentUserAtom } from "../session/atoms";
import { GuildChat } from "./guild-chat";
import { GuildGamePanel } from "./guild-game-panel";
import { InvitePanel, MembersPanel, ProblemsPanel, SettingsPanel } from "./guild-manage";
import { GuildProblem, Loading } from "./ui";
import { useGuildRoom } from "./use-guild-room";

type Tab = "chat" | "game";

export function GuildRoomPage() {
  const { guildId: param } = useParams({ strict: false }) as { guildId?: string };
  const { watch } = useSearch({ strict: false }) as WatchSearch;
  const guildId = param && /^[1-9]\d{0,9}$/.test(param) ? Number(param) : null;
  if (guildId === null) return <BadGuildId />;
  return <GuildRoom key={guildId} guildId={guildId} spectate={watch === 1} />;
}

function BadGuildId() {
  useDocumentTitle("길드 방");
  return <GuildProblem title={GUILD_MSG.badGuildId} />;
}

function GuildRoom({ guildId, spectate }: { guildId: number; spectate: boolean }) {
  const user = useAtomValue(currentUserAtom);
  const connected = useAtomValue(connectionStateAtom) === "open";
  const room = useGuildRoom(guildId, user?.id ?? null, spectate);
  const [tab, setTab] = useState<Tab>("chat");
  const status = room.game?.status;
  useDocumentTitle(room.room ? `${room.room.guild.name} 길드 방` : "길드 방");

  // A game that starts takes everyone to the game tab.
  useEffect(() => {
    if (status === "countdown" || room.countdown !== null) setTab("game");
  }, [status, room.countdown]);

  if (room.failure) {
    return (
      <GuildProblem
        title={room.failure.message || "길드 방에 들어갈 수 없습니다."}
        text={room.failure.kind === "removed" ? "더 이상 이 길드 방을 이용할 수 없습니다." : undefined}
      />
    );
  }
  if (!room.room) return <Loading text="길드 방에 들어가는 중..." />;

  const { guild, members, role, member_id, is_admin, problems } = room.room;
  return (
    <section className="guild-page guild-room">
      <header className="guild-room-head card">
        <div>
          <h1 className="guild-room-title">{guild.name}</h1>
          <span className="muted guild-small">
            {guild.member_count}/{guild.max_members}명 ·{" "}
            <span className={connected ? "guild-online" : "guild-offline"}>{connected ? "연결됨" : "연결 안 됨"}</span>
          </span>
        </div>
        <div className="guild-actions">
          <Link to="/guilds/$guildId/board" params={{ guildId: String(guild.id) }} className="btn btn-ghost btn-small">
            길드 게시판
          </Link>
          <Link to="/guilds/my" className="btn btn-ghost btn-small">
            내 길드
          </Link>
        </div>
      </header>
      <div className="guild-room-body">
        <div className="guild-room-main card">
          <div className="guild-tabs" role="tablist" aria-label="길드 방">
            <button
              type="button"
              role="tab"
              id="guild-tab-chat"
              aria-selected={tab === "chat"}
              aria-controls="guild-panel-chat"
              className={`guild-tab${tab === "chat" ? " active" : ""}`}
              onClick={() => setTab("chat")}
            >
              길드 채팅
            </button>
            <button
              type="button"
              role="tab"
              id="guild-tab-game"
              aria-selected={tab === "game"}
              aria-controls="guild-panel-game"
              className={`guild-tab${tab === "game" ? " active" : ""}`}
              onClick={() => setTab("game")}
            >
              길드 게임
              {(status === "countdown" || status === "in_progress") && (
                <span className="guild-tab-dot" title="진행 중" aria-hidden="true" />
              )}
            </button>
          </div>
          <div id="guild-panel-chat" role="tabpanel" aria-labelledby="guild-tab-chat" hidden={tab !== "chat"}>
            <GuildChat
              guildId={guildId}
              lines={room.lines}
              myUserId={user?.id ?? null}
              isAdmin={is_admin}
              onSend={room.sendMessage}
            />
          </div>
          <div id="guild-panel-game" role="tabpanel" aria-labelledby="guild-tab-game" hidden={tab !== "game"}>
            <GuildGamePanel
              game={room.game}
              results={room.results}
              countdown={room.countdown}
              notice={room.gameNotice}
              rejected={room.rejected}
              isAdmin={is_admin}
              problems={problems}
              myUserId={user?.id ?? null}
              emitGame={room.emitGame}
            />
          </div>
        </div>
        <aside className="guild-room-side card">
          <MembersPanel members={members} myRole={role} myMemberId={member_id} act={room.act} />
        </aside>
      </div>
      {is_admin && (
        <section className="guild-admin card" aria-label="길드 관리">
          <h2 className="guild-section-title">길드 관리</h2>
          <div className="guild-admin-grid">
            <SettingsPanel guild={guild} act={room.act} />
            <ProblemsPanel problems={problems} act={room.act} />
            <InvitePanel act={room.act} />
          </div>
        </section>
      )}
    </section>
  );
}
