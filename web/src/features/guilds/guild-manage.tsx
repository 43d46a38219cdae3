/**
 * The guild room's member list and admin panels (spec §2 "Guild room", §5, §6): members with crown and shield icons;
 * role changes (admins) and kicks after confirmation (admins: moderators and members; moderators: members) — what a
 * role cannot do is not shown, and the server refuses it anyway; settings with the §5 ranges; problems with the JSON
 * upload and its errors; invites by e-mail with the `@` and duplicate rules. Every action is an acknowledged socket
 * event whose refusal is shown with the spec's §8 text.
 */
import { type ChangeEvent, type FormEvent, useEffect, useState } from "react";
import {
  checkProblemsFile,
  GUILD_MSG,
  isPlayableProblem,
  PROBLEM_MIN_LENGTH,
  SETTINGS_RANGES,
  type SettingName,
} from "../../../../modules/guilds/rules";
import type { Ack, Guild, GuildMember, GuildRole } from "./types";
import { ROLE_LABELS, RoleIcon } from "./ui";
import type { Act } from "./use-guild-room";

function Feedback({ result }: { result: { ok: boolean; text: string } | null }) {
  if (!result) return null;
  return (
    <p className={`notice ${result.ok ? "notice-success" : "notice-error"}`} role={result.ok ? "status" : "alert"}>
      {result.text}
    </p>
  );
}

type Result = { ok: boolean; text: string } | null;
const refused = (answer: Ack, fallback: string): Result =>
  answer.success ? null : { ok: false, text: answer.error || fallback };

/** Kicks allowed by spec §6 and product-rules: nobody kicks an admin or themself; moderators kick members only. */
export function canKick(myRole: GuildRole, myMemberId: number, target: GuildMember): boolean {
  if (target.id === myMemberId || target.role === "admin") return false;
  if (myRole === "admin") return true;
  return myRole === "moderator" && target.role === "member";
}

export function MembersPanel({
  members,
  myRole,
  myMemberId,
  act,
}: {
  members: GuildMember[];
  myRole: GuildRole;
  myMemberId: number;
  act: Act;
}) {
  const [result, setResult] = useState<Result>(null);

  async function changeRole(member: GuildMember, role: GuildRole) {
    const answer = await act("guild:update_member_role", { member_id: member.id, role });
    setResult(refused(answer, GUILD_MSG.roleFailed) ?? { ok: true, text: `${member.username}님의 역할을 바꿨습니다.` });
  }

  async function kick(member: GuildMember) {
    if (!window.confirm(`${member.username}님을 길드에서 추방하시겠습니까?`)) return;
    const answer = await act("guild:kick_member", { member_id: member.id });
    setResult(refused(answer, GUILD_MSG.kickFailed) ?? { ok: true, text: `${member.username}님을 추방했습니다.` });
  }

  return (
    <section className="guild-panel" aria-labelledby="guild-room-members">
      {/* h2: the room's own sections come right under its h1 (headings in order, for screen-reader navigation). */}
      <h2 id="guild-room-members" className="guild-section-title">
        길드원 ({members.length})
      </h2>
      <Feedback result={result} />
      <ul className="guild-members">
        {members.map((member) => (
          <li key={member.id} className="guild-member" data-member-id={member.id} data-username={member.username}>
            <RoleIcon role={member.role} />
            <span className="guild-member-name">{member.username}</span>
            {myRole === "admin" && member.role !== "admin" ? (
              <select
                className="input guild-role-select"
                aria-label={`${member.username} 역할`}
                value={member.role}
                onChange={(e) => changeRole(member, e.target.value as GuildRole)}
              >
                {(["admin", "moderator", "member"] as const).map((role) => (
                  <option key={role} value={role}>
                    {ROLE_LABELS[role]}
                  </option>
                ))}
              </select>
            ) : (
              <span className="muted guild-small">{ROLE_LABELS[member.role]}</span>
            )}
            {canKick(myRole, myMemberId, member) && (
              <button
                type="button"
                className="btn btn-ghost btn-small guild-danger"
                aria-label={`${member.username} 추방`}
                onClick={() => kick(member)}
              >
                추방
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

const SETTING_LABELS: Record<SettingName, string> = {
  max_members: "최대 인원 (명)",
  countdown_seconds: "시작 카운트다운 (초)",
  end_countdown_seconds: "종료 카운트다운 (초)",
};
const RANGE_TEXT: Record<SettingName, string> = {
  max_members: GUILD_MSG.maxMembersRange,
  countdown_seconds: GUILD_MSG.countdownRange,
  end_countdown_seconds: GUILD_MSG.endCountdownRange,
};
const SETTING_NAMES = Object.keys(SETTINGS_RANGES) as SettingName[];

export function SettingsPanel({ guild, act }: { guild: Guild; act: Act }) {
  const [values, setValues] = useState(() => Object.fromEntries(SETTING_NAMES.map((n) => [n, String(guild[n])])));
  const [result, setResult] = useState<Result>(null);
  // The room's state arrives again after every change (by anyone): the form follows it.
  useEffect(() => {
    setValues(Object.fromEntries(SETTING_NAMES.map((n) => [n, String(guild[n])])));
  }, [guild]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const settings: Partial<Record<SettingName, number>> = {};
    for (const name of SETTING_NAMES) {
      const value = Number(values[name]);
      const range = SETTINGS_RANGES[name];
      // Out-of-range input is not sent (spec §5); the form says which range applies.
      if (!Number.isInteger(value) || value < range.min || value > range.max) {
        return setResult({ ok: false, text: RANGE_TEXT[name] });
      }
      settings[name] = value;
    }
    const answer = await act("guild:update_settings", { settings });
    setResult(refused(answer, GUILD_MSG.settingsFailed) ?? { ok: true, text: "설정을 저장했습니다." });
  }

  return (
    <form className="guild-panel" onSubmit={save} noValidate aria-labelledby="guild-settings-title">
      <h3 id="guild-settings-title" className="guild-section-title">
        길드 설정
      </h3>
      <Feedback result={result} />
      {SETTING_NAMES.map((name) => (
        <div className="field" key={name}>
          <label className="field-label" htmlFor={`setting-${name}`}>
            {SETTING_LABELS[name]}
          </label>
          <input
            id={`setting-${name}`}
            className="input"
            type="number"
            inputMode="numeric"
            min={SETTINGS_RANGES[name].min}
            max={SETTINGS_RANGES[name].max}
            value={values[name]}
            onChange={(e) => {
              setValues({ ...values, [name]: e.target.value });
              setResult(null);
            }}
          />
          <span className="guild-hint muted">
            {SETTINGS_RANGES[name].min}~{SETTINGS_RANGES[name].max}
          </span>
        </div>
      ))}
      <button type="submit" className="btn btn-primary btn-small">
        설정 저장
      </button>
    </form>
  );
}

export function ProblemsPanel({ problems, act }: { problems: string[]; act: Act }) {
  const [list, setList] = useState(problems);
  const [draft, setDraft] = useState("");
  const [result, setResult] = useState<Result>(null);
  useEffect(() => setList(problems), [problems]);

  async function save(next: string[]) {
    const answer = await act("guild:upload_problems", { problems: next });
    setResult(refused(answer, GUILD_MSG.problemsFailed) ?? { ok: true, text: `문제 ${next.length}개를 저장했습니다.` });
  }

  function add(event: FormEvent) {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return; // an empty new problem is ignored (spec §5)
    // The server's rule and text (a problem has at least 10 characters), said before the list is saved.
    if (!isPlayableProblem(text)) return setResult({ ok: false, text: GUILD_MSG.problemTooShort });
    setList([...list, text]);
    setDraft("");
    setResult(null);
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const checked = checkProblemsFile(file.name, file.type, await file.text());
    if (!checked.ok) return setResult({ ok: false, text: checked.error });
    setList(checked.value);
    await save(checked.value);
  }

  return (
    <section className="guild-panel" aria-labelledby="guild-problems-title">
      <h3 id="guild-problems-title" className="guild-section-title">
        문제 관리 ({list.length})
      </h3>
      <Feedback result={result} />
      {list.length === 0 ? (
        <p className="muted">등록된 문제가 없습니다.</p>
      ) : (
        <ol className="guild-problems">
          {list.map((problem, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: problems may repeat; position is their identity here
            <li key={index} className="guild-problem-item">
              <span>{problem}</span>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={`문제 ${index + 1} 삭제`}
                onClick={() => setList(list.filter((_, i) => i !== index))}
              >
                삭제
              </button>
            </li>
          ))}
        </ol>
      )}
      <form className="guild-inline" onSubmit={add}>
        <input
          className="input"
          aria-label="새 문제"
          placeholder="새 문제를 입력하세요"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="btn btn-ghost btn-small">
          추가
        </button>
      </form>
      <div className="guild-actions">
        <button type="button" className="btn btn-primary btn-small" onClick={() => save(list)}>
          문제 저장
        </button>
        <label className="btn btn-ghost btn-small guild-file">
          JSON 파일 업로드
          <input type="file" accept=".json,application/json" onChange={upload} className="sr-only" />
        </label>
      </div>
      <p className="muted guild-small">
        문제는 {PROBLEM_MIN_LENGTH}자 이상이어야 합니다. JSON 파일은 문자열 배열이어야 합니다. 예: ["가는 말이 고와야
        오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"]
      </p>
    </section>
  );
}

export function InvitePanel({ act }: { act: Act }) {
  const [emails, setEmails] = useState<string[]>([]);
  const [draft, setDraft] = useState("");
  const [result, setResult] = useState<Result>(null);

  function add(event: FormEvent) {
    event.preventDefault();
    const email = draft.trim().toLowerCase();
    if (!email.includes("@")) return setResult({ ok: false, text: GUILD_MSG.inviteEmailInvalid });
    if (emails.includes(email)) return setResult({ ok: false, text: GUILD_MSG.inviteDuplicate });
    setEmails([...emails, email]);
    setDraft("");
    setResult(null);
  }

  async function send() {
    if (emails.length === 0) return setResult({ ok: false, text: GUILD_MSG.inviteNone });
    const answer = await act("guild:send_invites", { invites: emails.map((email) => ({ email })) });
    const failure = refused(answer, GUILD_MSG.invitesFailed);
    if (failure) return setResult(failure);
    setResult({ ok: true, text: `${emails.length}명에게 초대를 보냈습니다.` });
    setEmails([]);
  }

  return (
    <section className="guild-panel" aria-labelledby="guild-invite-title">
      <h3 id="guild-invite-title" className="guild-section-title">
        초대하기
      </h3>
      <Feedback result={result} />
      <form className="guild-inline" onSubmit={add} noValidate>
        <input
          className="input"
          type="email"
          aria-label="초대할 이메일"
          placeholder="이메일 주소"
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setResult(null);
          }}
        />
        <button type="submit" className="btn btn-ghost btn-small">
          추가
        </button>
      </form>
      {emails.length > 0 && (
        <ul className="guild-invite-list">
          {emails.map((email) => (
            <li key={email}>
              {email}
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={`${email} 빼기`}
                onClick={() => setEmails(emails.filter((e) => e !== email))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-primary btn-small" onClick={send}>
        초대 보내기
      </button>
    </section>
  );
}
