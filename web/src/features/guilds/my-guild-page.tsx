/**
 * /guilds/my (spec §2): the caller's guild — name, description, members count/max, creation date, buttons to the
 * guild room and board, members with their role icons, the recent-activity list — and the invitations addressed to
 * the caller (accept/decline). Staff see the pending applications.
 */
import { Link, useNavigate } from "@tanstack/react-router";
import { useCallback, useEffect, useState } from "react";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { ApplicationsPanel } from "./applications-panel";
import { guildApi } from "./guild-api";
import type { Guild, GuildMember, MyGuild, MyInvitation } from "./types";
import { failureText, isStaff, Loading, ROLE_LABELS, RoleIcon, When, YesOrNo } from "./ui";

function Invitations({ items, onDone }: { items: MyInvitation[]; onDone: (joined: boolean) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  async function answer(invitation: MyInvitation, accept: boolean) {
    setBusy(invitation.id);
    setError(null);
    try {
      if (accept) await guildApi.accept(invitation.id);
      else await guildApi.decline(invitation.id);
      onDone(accept);
    } catch (failure) {
      setError(failureText(failure, "초대를 처리하지 못했습니다."));
    } finally {
      setBusy(null);
    }
  }
  return (
    <section className="card guild-section" aria-labelledby="guild-invitations-title">
      <h2 id="guild-invitations-title" className="guild-section-title">
        받은 초대
      </h2>
      <ErrorNotice text={error} />
      {items.length === 0 ? (
        <p className="muted">받은 초대가 없습니다.</p>
      ) : (
        <ul className="guild-rows">
          {items.map((invitation) => (
            <li key={invitation.id} className="guild-row" data-invitation-id={invitation.id}>
              <div className="guild-row-main">
                <strong>{invitation.guild_name}</strong>
                <span className="muted guild-small">
                  {invitation.invited_by}님의 초대 · <When value={invitation.created_at} />
                </span>
              </div>
              <YesOrNo yes="수락" busy={busy === invitation.id} onAnswer={(yes) => answer(invitation, yes)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function MemberList({ members }: { members: GuildMember[] }) {
  return (
    <ul className="guild-members">
      {members.map((member) => (
        <li key={member.id} className="guild-member" data-member-id={member.id}>
          <RoleIcon role={member.role} />
          <span className="guild-member-name">{member.username}</span>
          <span className="muted guild-small">{ROLE_LABELS[member.role]}</span>
        </li>
      ))}
    </ul>
  );
}

function GuildSummary({ guild, role, onLeft }: { guild: Guild; role: MyGuild["role"]; onLeft: () => void }) {
  const [error, setError] = useState<string | null>(null);
  async function leave() {
    if (!window.confirm(`${guild.name} 길드를 탈퇴하시겠습니까?`)) return;
    try {
      await guildApi.leave(guild.id);
      onLeft();
    } catch (failure) {
      setError(failureText(failure, "길드를 탈퇴하지 못했습니다."));
    }
  }
  async function disband() {
    if (!window.confirm(`${guild.name} 길드를 해산하시겠습니까? 되돌릴 수 없습니다.`)) return;
    try {
      await guildApi.disband(guild.id);
      onLeft();
    } catch (failure) {
      setError(failureText(failure, "길드를 해산하지 못했습니다."));
    }
  }
  return (
    <section className="card guild-section guild-summary" aria-labelledby="my-guild-name">
      <h1 id="my-guild-name" className="page-title">
        {guild.name}
      </h1>
      {guild.description && <p className="guild-desc">{guild.description}</p>}
      <dl className="guild-facts">
        <div>
          <dt>회원</dt>
          <dd>
            {guild.member_count}/{guild.max_members}명
          </dd>
        </div>
        <div>
          <dt>만든 날</dt>
          <dd>
            <When value={guild.created_at} />
          </dd>
        </div>
        <div>
          <dt>내 역할</dt>
          <dd>{role ? ROLE_LABELS[role] : "-"}</dd>
        </div>
      </dl>
      <ErrorNotice text={error} />
      <div className="guild-actions">
        <Link to="/guilds/$guildId/room" params={{ guildId: String(guild.id) }} className="btn btn-primary">
          길드 방
        </Link>
        <Link to="/guilds/$guildId/board" params={{ guildId: String(guild.id) }} className="btn btn-ghost">
          길드 게시판
        </Link>
        <button type="button" className="btn btn-ghost" onClick={leave}>
          탈퇴
        </button>
        {role === "admin" && (
          <button type="button" className="btn btn-ghost guild-danger" onClick={disband}>
            길드 해산
          </button>
        )}
      </div>
    </section>
  );
}

export function MyGuildPage() {
  useDocumentTitle("내 길드");
  const navigate = useNavigate();
  const [mine, setMine] = useState<MyGuild | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback((signal?: AbortSignal) => {
    setError(null);
    return guildApi.my(signal).then(setMine, (failure) => {
      if ((failure as Error)?.name !== "AbortError") setError(failureText(failure, "길드 정보를 불러오지 못했습니다."));
    });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  if (error) {
    return (
      <section className="guild-page guild-narrow">
        <p className="notice notice-error" role="alert">
          {error}
        </p>
        <button type="button" className="btn btn-ghost" onClick={() => load()}>
          다시 시도
        </button>
      </section>
    );
  }
  if (!mine) return <Loading />;

  const guild = mine.guild;
  return (
    <section className="guild-page">
      {guild ? (
        <GuildSummary guild={guild} role={mine.role} onLeft={() => load()} />
      ) : (
        <section className="card guild-section">
          <h1 className="page-title">내 길드</h1>
          <p className="muted">아직 가입한 길드가 없습니다. 길드를 만들거나 모집 글에서 가입을 신청해보세요.</p>
          <div className="guild-actions">
            <Link to="/guilds/create" className="btn btn-primary">
              길드 만들기
            </Link>
            <Link to="/guilds/recruitment" className="btn btn-ghost">
              길드원 모집 게시판
            </Link>
            <Link to="/guilds" className="btn btn-ghost">
              길드 목록
            </Link>
          </div>
        </section>
      )}
      <div className="guild-columns">
        {guild && (
          <section className="card guild-section" aria-labelledby="guild-members-title">
            <h2 id="guild-members-title" className="guild-section-title">
              길드원 ({mine.members.length})
            </h2>
            <MemberList members={mine.members} />
          </section>
        )}
        {guild && (
          <section className="card guild-section" aria-labelledby="guild-activity-title">
            <h2 id="guild-activity-title" className="guild-section-title">
              최근 활동
            </h2>
            {mine.recent_activity.length === 0 ? (
              <p className="muted">최근 활동이 없습니다.</p>
            ) : (
              <ul className="guild-activity">
                {mine.recent_activity.map((activity) => (
                  <li key={activity.id}>
                    <span>{activity.message}</span>
                    <span className="muted guild-small">
                      <When value={activity.created_at} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
        {guild && isStaff(mine.role) && <ApplicationsPanel guildId={guild.id} onChanged={() => load()} />}
        {(!guild || mine.invitations.length > 0) && (
          <Invitations
            items={mine.invitations}
            onDone={(joined) => {
              void load();
              if (joined) void navigate({ to: "/guilds/my" });
            }}
          />
        )}
      </div>
    </section>
  );
}
