/** /guilds/create (spec §2, §5): name required, description optional; the creator becomes the guild's admin. */
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import {
  charLength,
  checkDescription,
  checkGuildName,
  DESCRIPTION_MAX,
  NAME_MAX,
} from "../../../../modules/guilds/rules";
import { useDocumentTitle } from "../../lib/title";
import { guildApi } from "./guild-api";
import { failureText } from "./ui";

export function GuildCreatePage() {
  useDocumentTitle("길드 만들기");
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checkedName = checkGuildName(name);
    if (!checkedName.ok) return setError(checkedName.error);
    const checkedDescription = checkDescription(description);
    if (!checkedDescription.ok) return setError(checkedDescription.error);
    setBusy(true);
    try {
      await guildApi.create(checkedName.value, checkedDescription.value);
      await navigate({ to: "/guilds/my" });
    } catch (failure) {
      setError(failureText(failure, "길드를 만들지 못했습니다."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="guild-page guild-narrow">
      <form className="card guild-form" onSubmit={submit} noValidate>
        <h1 className="page-title">길드 만들기</h1>
        {error && (
          <div className="notice notice-error" role="alert">
            {error}
          </div>
        )}
        <div className="field">
          <label className="field-label" htmlFor="guild-name">
            길드 이름
          </label>
          <input
            id="guild-name"
            className="input"
            value={name}
            maxLength={NAME_MAX * 2}
            autoComplete="off"
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
          />
          <span className="guild-hint muted">2~{NAME_MAX}자</span>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="guild-description">
            길드 소개 (선택)
          </label>
          <textarea
            id="guild-description"
            className="input guild-textarea"
            rows={4}
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
              setError(null);
            }}
          />
          <span className="guild-hint muted">
            {charLength(description.trim())}/{DESCRIPTION_MAX}
          </span>
        </div>
        <div className="guild-actions">
          <Link to="/guilds" className="btn btn-ghost">
            취소
          </Link>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "만드는 중..." : "만들기"}
          </button>
        </div>
      </form>
    </section>
  );
}
