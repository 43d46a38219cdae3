/** The pending applications of a guild, approved or rejected by its admins and moderators (product-rules "Guilds"). */
import { useCallback, useEffect, useState } from "react";
import { ErrorNotice } from "../../ui/error-notice";
import { guildApi } from "./guild-api";
import type { Application } from "./types";
import { failureText, Loading, When, YesOrNo } from "./ui";

export function ApplicationsPanel({ guildId, onChanged }: { guildId: number; onChanged?: () => void }) {
  const [items, setItems] = useState<Application[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(
    (signal?: AbortSignal) =>
      guildApi.applications(guildId, signal).then(setItems, (failure) => {
        if ((failure as Error)?.name !== "AbortError")
          setError(failureText(failure, "가입 신청을 불러오지 못했습니다."));
      }),
    [guildId],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  async function decide(application: Application, approve: boolean) {
    setBusy(application.id);
    setError(null);
    try {
      if (approve) await guildApi.approve(guildId, application.id);
      else await guildApi.reject(guildId, application.id);
      await load();
      onChanged?.();
    } catch (failure) {
      setError(failureText(failure, "가입 신청을 처리하지 못했습니다."));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card guild-section" aria-labelledby="guild-applications-title">
      <h2 id="guild-applications-title" className="guild-section-title">
        가입 신청
      </h2>
      <ErrorNotice text={error} />
      {!items && !error && <Loading />}
      {items && items.length === 0 && <p className="muted">대기 중인 가입 신청이 없습니다.</p>}
      {items && items.length > 0 && (
        <ul className="guild-rows">
          {items.map((application) => (
            <li key={application.id} className="guild-row" data-application-id={application.id}>
              <div className="guild-row-main">
                <strong>{application.username}</strong>
                {application.message && <p className="guild-desc">{application.message}</p>}
                <span className="muted guild-small">
                  <When value={application.created_at} />
                </span>
              </div>
              <YesOrNo yes="승인" busy={busy === application.id} onAnswer={(yes) => decide(application, yes)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
