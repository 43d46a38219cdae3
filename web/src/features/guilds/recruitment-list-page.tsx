/**
 * /guilds/recruitment (spec §2): the table of guild, title, author, date and views, and — for a guild's admins and
 * moderators — the write form with guild select, title and content ("모든 필드를 입력해주세요.", spec §5). A member
 * the viewer blocked: their posts are left out (moderation's blocks, as on the free board).
 */
import { Link, useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { type FormEvent, useEffect, useState } from "react";
import { GUILD_MSG, RECRUITMENT_CONTENT_MAX, RECRUITMENT_TITLE_MAX } from "../../../../modules/guilds/rules";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { useWithoutBlocked } from "../moderation/blocks";
import { isAuthenticatedAtom } from "../session/atoms";
import { guildApi } from "./guild-api";
import type { Guild, Paged, RecruitmentPost } from "./types";
import { failureText, isStaff, Loading, SimplePager, TitleAndContent, When } from "./ui";

/** The guild the caller may recruit for (a user is in at most one guild), or null. */
function useRecruitingGuild(): Guild | null {
  const loggedIn = useAtomValue(isAuthenticatedAtom);
  const [guild, setGuild] = useState<Guild | null>(null);
  useEffect(() => {
    if (!loggedIn) return setGuild(null);
    const controller = new AbortController();
    guildApi.my(controller.signal).then(
      (mine) => setGuild(mine.guild && isStaff(mine.role) ? mine.guild : null),
      () => setGuild(null),
    );
    return () => controller.abort();
  }, [loggedIn]);
  return guild;
}

function WriteForm({ guild, onCancel }: { guild: Guild; onCancel: () => void }) {
  const navigate = useNavigate();
  const [guildId, setGuildId] = useState(String(guild.id));
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!guildId || !title.trim() || !content.trim()) return setError(GUILD_MSG.allFieldsRequired);
    setBusy(true);
    try {
      const post = await guildApi.writeRecruitment({
        guild_id: Number(guildId),
        title: title.trim(),
        content: content.trim(),
      });
      await navigate({ to: "/guilds/recruitment/$id", params: { id: String(post.id) } });
    } catch (failure) {
      setError(failureText(failure, "모집글을 등록하지 못했습니다."));
      setBusy(false);
    }
  }

  return (
    <form className="card guild-form" onSubmit={submit} noValidate aria-label="모집글 작성">
      <h2 className="guild-section-title">모집글 작성</h2>
      <ErrorNotice text={error} />
      <div className="field">
        <label className="field-label" htmlFor="recruit-guild">
          길드
        </label>
        <select id="recruit-guild" className="input" value={guildId} onChange={(e) => setGuildId(e.target.value)}>
          <option value={String(guild.id)}>{guild.name}</option>
        </select>
      </div>
      <TitleAndContent
        title={title}
        content={content}
        titleMax={RECRUITMENT_TITLE_MAX}
        contentMax={RECRUITMENT_CONTENT_MAX}
        rows={6}
        onTitle={setTitle}
        onContent={setContent}
        onEdit={() => setError(null)}
      />
      <div className="guild-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          취소
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "등록 중..." : "등록"}
        </button>
      </div>
    </form>
  );
}

export function RecruitmentListPage() {
  useDocumentTitle("길드원 모집");
  const guild = useRecruitingGuild();
  const [page, setPage] = useState(1);
  const [list, setList] = useState<Paged<RecruitmentPost> | null>(null);
  const [failed, setFailed] = useState(false);
  const [writing, setWriting] = useState(false);
  const posts = useWithoutBlocked()(list?.items ?? [], (post) => post.author_id);

  useEffect(() => {
    const controller = new AbortController();
    setFailed(false);
    guildApi.recruitment(page, controller.signal).then(setList, (error) => {
      if ((error as Error)?.name !== "AbortError") setFailed(true);
    });
    return () => controller.abort();
  }, [page]);

  return (
    <section className="guild-page">
      <div className="guild-head">
        <h1 className="page-title">길드원 모집</h1>
        {guild && !writing && (
          <button type="button" className="btn btn-primary btn-small" onClick={() => setWriting(true)}>
            모집글 쓰기
          </button>
        )}
      </div>
      {guild && writing && <WriteForm guild={guild} onCancel={() => setWriting(false)} />}
      <section className="card guild-section">
        {failed && (
          <p className="notice notice-error" role="alert">
            모집글을 불러오는데 실패했습니다.
          </p>
        )}
        {!list && !failed && <Loading />}
        {list && posts.length === 0 && <p className="muted guild-empty">아직 모집글이 없습니다.</p>}
        {list && posts.length > 0 && (
          <table className="guild-table">
            <thead>
              <tr>
                <th scope="col">길드</th>
                <th scope="col">제목</th>
                <th scope="col" className="guild-col-optional">
                  작성자
                </th>
                <th scope="col" className="guild-col-optional">
                  작성일
                </th>
                <th scope="col">조회</th>
              </tr>
            </thead>
            <tbody>
              {posts.map((post) => (
                <tr key={post.id}>
                  <td>{post.guild_name}</td>
                  <td>
                    <Link to="/guilds/recruitment/$id" params={{ id: String(post.id) }}>
                      {post.title}
                    </Link>
                  </td>
                  <td className="guild-col-optional">{post.author_name}</td>
                  <td className="guild-col-optional">
                    <When value={post.created_at} />
                  </td>
                  <td>{post.view_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {list && <SimplePager page={page} totalPages={list.total_pages} onPage={setPage} label="모집글 페이지" />}
      </section>
    </section>
  );
}
