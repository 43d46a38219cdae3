/** /guilds (spec §2): the room list and the guild list, with a create button for logged-in users. */
import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { type FormEvent, useEffect, useState } from "react";
import { api } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { isAuthenticatedAtom } from "../session/atoms";
import { guildApi } from "./guild-api";
import type { Guild, Paged } from "./types";
import { Loading, SimplePager, When } from "./ui";

interface RoomSummary {
  id: number;
  name: string;
  total_participants: number;
  max_users: number;
}

function RoomLinks() {
  const [rooms, setRooms] = useState<RoomSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api.get<RoomSummary[]>("/api/rooms/", { signal: controller.signal }).then(
      (list) => setRooms(Array.isArray(list) ? list : []),
      (error) => (error as Error)?.name !== "AbortError" && setFailed(true),
    );
    return () => controller.abort();
  }, []);
  return (
    <section className="card guild-section" aria-labelledby="guild-rooms-title">
      <h2 id="guild-rooms-title" className="guild-section-title">
        타자 방
      </h2>
      {failed && <p className="notice notice-error">방 목록을 불러오는데 실패했습니다.</p>}
      {!rooms && !failed && <Loading />}
      {rooms && (
        <ul className="guild-room-links">
          {rooms.map((room) => (
            <li key={room.id}>
              <Link to="/rooms/$roomId" params={{ roomId: String(room.id) }}>
                {room.name}
              </Link>
              <span className="muted">
                {" "}
                {room.total_participants}/{room.max_users}명
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function GuildListPage() {
  useDocumentTitle("길드");
  const loggedIn = useAtomValue(isAuthenticatedAtom);
  const [page, setPage] = useState(1);
  const [query, setQuery] = useState("");
  const [typed, setTyped] = useState("");
  const [list, setList] = useState<Paged<Guild> | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setFailed(false);
    guildApi.list(page, query, controller.signal).then(setList, (error) => {
      if ((error as Error)?.name !== "AbortError") setFailed(true);
    });
    return () => controller.abort();
  }, [page, query]);

  function search(event: FormEvent) {
    event.preventDefault();
    setPage(1);
    setQuery(typed.trim());
  }

  return (
    <section className="guild-page">
      <div className="guild-head">
        <h1 className="page-title">길드</h1>
        <div className="guild-actions">
          <Link to="/guilds/recruitment" className="btn btn-ghost btn-small">
            길드원 모집
          </Link>
          {loggedIn && (
            <Link to="/guilds/my" className="btn btn-ghost btn-small">
              내 길드
            </Link>
          )}
          {loggedIn && (
            <Link to="/guilds/create" className="btn btn-primary btn-small">
              길드 만들기
            </Link>
          )}
        </div>
      </div>
      <div className="guild-columns">
        <section className="card guild-section" aria-labelledby="guild-list-title">
          <h2 id="guild-list-title" className="guild-section-title">
            길드 목록
          </h2>
          <form className="guild-search" onSubmit={search}>
            <input
              className="input"
              aria-label="길드 이름 검색"
              placeholder="길드 이름으로 검색"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
            <button type="submit" className="btn btn-ghost btn-small">
              검색
            </button>
          </form>
          {failed && (
            <p className="notice notice-error" role="alert">
              길드 목록을 불러오는데 실패했습니다.
            </p>
          )}
          {!list && !failed && <Loading />}
          {list && list.items.length === 0 && (
            <p className="muted guild-empty">{query ? "검색 결과가 없습니다." : "아직 길드가 없습니다."}</p>
          )}
          {list && list.items.length > 0 && (
            <ul className="guild-list">
              {list.items.map((guild) => (
                <li key={guild.id} className="guild-list-item" data-guild-id={guild.id}>
                  <div className="guild-list-top">
                    <strong className="guild-name">{guild.name}</strong>
                    <span className="muted">
                      {guild.member_count}/{guild.max_members}명
                    </span>
                  </div>
                  {guild.description && <p className="guild-desc">{guild.description}</p>}
                  <span className="muted guild-small">
                    만든 날 <When value={guild.created_at} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {list && <SimplePager page={page} totalPages={list.total_pages} onPage={setPage} label="길드 목록 페이지" />}
        </section>
        <RoomLinks />
      </div>
    </section>
  );
}
