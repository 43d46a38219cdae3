import { type FormEvent, useState } from "react";
import { checkListWord, WORD_MAX } from "../../../../modules/moderation/rules";
import { isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { AdminPageHeader } from "./admin-page-header";
import { formatDateTime } from "./format";
import { LoadError } from "./load-error";
import { profanityApi, type WordEntry } from "./profanity-api";
import { useLoad } from "./use-load";

const failureText = (failure: unknown, fallback: string) =>
  isApiError(failure) && failure.status !== 0 && failure.detail ? failure.detail : fallback;

/** A word as a chip with its button: 빼기, or 다시 넣기 for a removed word of the data file. */
function WordChip({
  entry,
  removed,
  onChange,
}: {
  entry: WordEntry;
  removed: boolean;
  onChange: (word: string) => void;
}) {
  const label = removed ? "다시 넣기" : "빼기";
  const changed = entry.by ? `${removed ? "뺀" : "추가"}: ${entry.by}, ${formatDateTime(entry.at)}` : null;
  return (
    <li className={entry.source === "admin" ? "profanity-chip is-added" : "profanity-chip"}>
      <span className="profanity-word">{entry.word}</span>
      {changed && <span className="profanity-by">{changed}</span>}
      <button
        type="button"
        className="btn btn-ghost btn-small"
        aria-label={`${entry.word} ${label}`}
        onClick={() => onChange(entry.word)}
      >
        {label}
      </button>
    </li>
  );
}

function WordChips({
  label,
  entries,
  removed,
  onChange,
}: {
  label: string;
  entries: WordEntry[];
  removed: boolean;
  onChange: (word: string) => void;
}) {
  if (entries.length === 0) return <p className="muted">찾는 단어가 없습니다.</p>;
  return (
    <ul className="profanity-words" aria-label={label}>
      {entries.map((entry) => (
        <WordChip key={entry.word} entry={entry} removed={removed} onChange={onChange} />
      ))}
    </ul>
  );
}

/**
 * /admin/profanity: the profanity list in force (the data file's words and the administrators'), adding a word,
 * removing one and putting a removed word of the data file back. Every change reaches every server at once and is in
 * the admin log.
 */
export function ProfanityPage() {
  useDocumentTitle("금칙어 관리");
  const [version, setVersion] = useState(0);
  const list = useLoad((signal) => profanityApi.list(signal), String(version), "금칙어 목록을 불러오지 못했습니다.", {
    serverText: true,
  });
  const [word, setWord] = useState("");
  const [filter, setFilter] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function change(call: () => Promise<{ detail: string; word: string }>) {
    setBusy(true);
    setError(null);
    try {
      const answer = await call();
      setDone(`${answer.detail} (${answer.word})`);
      setVersion((v) => v + 1);
      return true;
    } catch (failure) {
      setError(failureText(failure, "금칙어 목록을 바꾸지 못했습니다."));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    const problem = checkListWord(word);
    if (problem) return setError(problem);
    if (await change(() => profanityApi.add(word.trim()))) setWord("");
  }
  const remove = (target: string) => change(() => profanityApi.remove(target));
  const putBack = (target: string) => change(() => profanityApi.add(target));

  const needle = filter.trim();
  const shown = list.data?.words.filter((entry) => entry.word.includes(needle)) ?? [];
  return (
    <section className="admin-page">
      <AdminPageHeader title="금칙어 관리">
        <p className="muted">
          채팅에서는 ***로 가려지고, 글·댓글·아이디·길드 이름에 있으면 거절됩니다. 띄어 쓰거나 자모로 풀거나 영문
          자판으로 친 것도 잡습니다. 바꾼 내용은 모든 서버에 바로 적용되고 관리자 로그에 남습니다.
        </p>
      </AdminPageHeader>

      <form className="admin-toolbar" onSubmit={add} aria-label="금칙어 더하기">
        <label className="field admin-search" htmlFor="profanity-word">
          <span>더할 단어</span>
          <input
            id="profanity-word"
            className="input"
            name="word"
            value={word}
            maxLength={WORD_MAX}
            autoComplete="off"
            onChange={(e) => setWord(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-primary profanity-add" disabled={busy}>
          더하기
        </button>
      </form>
      <ErrorNotice text={error} />
      {done && (
        <p className="notice notice-success" role="status">
          {done}
        </p>
      )}

      {list.error && <LoadError message={list.error.message} onRetry={list.reload} />}
      {list.data && (
        <>
          <h2 className="admin-section-title">쓰이는 금칙어 {list.data.total}개</h2>
          <label className="field profanity-filter" htmlFor="profanity-filter">
            <span>목록에서 찾기</span>
            <input
              id="profanity-filter"
              className="input"
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
          </label>
          <WordChips label="쓰이는 금칙어" entries={shown} removed={false} onChange={remove} />
          {list.data.removed.length > 0 && (
            <>
              <h2 className="admin-section-title">뺀 기본 단어</h2>
              <WordChips label="뺀 기본 단어" entries={list.data.removed} removed onChange={putBack} />
            </>
          )}
        </>
      )}
      {list.loading && !list.data && <p className="admin-empty muted">불러오는 중...</p>}
    </section>
  );
}
