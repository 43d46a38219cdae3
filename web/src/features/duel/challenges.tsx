/**
 * Direct challenges on /duel (duel README "Direct challenges"): the received ones with 수락 / 거절 and their
 * countdown, the sent ones with 취소, the member's "대결 신청 받기" setting, the challenge link and the prompt a
 * link opens. The server decides everything; these only show it and send the member's answers.
 */
import { Link } from "@tanstack/react-router";
import { useEffect, useReducer, useState } from "react";
import { CHALLENGE_TTL_MS } from "../../../../modules/duel/rules";
import { socketManager, useSocketEvent } from "../../lib/socket";
import { useNow } from "../../lib/use-now";
import { challengeLink } from "./challenge-link";
import { challengesReducer, noChallenges, type PendingChallenge, secondsLeft } from "./challenge-state";
import type { OnlineUser } from "./duel-state";

const NO_ANSWER = "서버가 응답하지 않았습니다. 잠시 후 다시 시도해주세요.";

type Answer = { success: true } | { success: false; error: string } | undefined;
const refusalOf = (answer: Answer) => (answer?.success ? null : (answer?.error ?? NO_ANSWER));

/** The page's challenges: what the server said about them, and the member's actions. */
export function useChallenges() {
  const [state, dispatch] = useReducer(challengesReducer, noChallenges);
  const pending = state.received.length + state.sent.length > 0;
  const now = useNow(500, pending);
  useEffect(() => dispatch({ type: "tick", now }), [now]);
  useSocketEvent("duel:challenge_received", (p) =>
    dispatch({
      type: "received",
      challenge: {
        id: p.challenge_id,
        sid: p.from.sid,
        nickname: p.from.nickname,
        rating: p.from.rating,
        expiresAt: Date.now() + p.expires_in * 1000,
      },
    }),
  );
  useSocketEvent("duel:challenge_closed", (p) =>
    dispatch({ type: "closed", id: p.challenge_id, reason: p.reason, message: p.message }),
  );
  const tell = (text: string | null) => dispatch({ type: "notice", text });
  /** Sends the answer; a refusal (expired meanwhile, busy) is told. */
  const answer = (event: "duel_challenge_accept" | "duel_challenge_decline" | "duel_challenge_cancel", id: string) => {
    dispatch({ type: "answered", id });
    socketManager.emit(event, { challenge_id: id }, (reply: Answer) => {
      const refused = refusalOf(reply);
      if (refused) tell(refused);
    });
  };
  return {
    state,
    now,
    tell,
    challenge(user: Pick<OnlineUser, "sid" | "nickname">) {
      socketManager.emit("duel_challenge", { sid: user.sid }, (reply) => {
        if (!reply?.success) return tell(refusalOf(reply));
        const challenge = { id: reply.challenge_id, sid: user.sid, nickname: user.nickname, rating: null };
        dispatch({ type: "sent", challenge: { ...challenge, expiresAt: Date.now() + reply.expires_in * 1000 } });
      });
    },
    accept: (id: string) => answer("duel_challenge_accept", id),
    decline: (id: string) => answer("duel_challenge_decline", id),
    cancel: (id: string) => answer("duel_challenge_cancel", id),
  };
}

export type Challenges = ReturnType<typeof useChallenges>;

/** Received challenges (수락 / 거절), sent ones (취소), and the last word about them. */
export function ChallengePanels({ challenges, showReceived }: { challenges: Challenges; showReceived: boolean }) {
  const { state, now } = challenges;
  return (
    <>
      {state.notice && (
        <p className="notice notice-info duel-notice" role="status">
          {state.notice}
          <button type="button" className="btn btn-ghost btn-small" onClick={() => challenges.tell(null)}>
            닫기
          </button>
        </p>
      )}
      {showReceived && state.received.length > 0 && (
        <section className="duel-panel duel-challenges" aria-labelledby="duel-received-title">
          <h2 id="duel-received-title">받은 도전</h2>
          <ul>
            {state.received.map((challenge) => (
              <Received key={challenge.id} challenge={challenge} now={now} challenges={challenges} />
            ))}
          </ul>
        </section>
      )}
      {state.sent.length > 0 && (
        <section className="duel-panel duel-challenges" aria-labelledby="duel-sent-title">
          <h2 id="duel-sent-title">보낸 도전</h2>
          <ul>
            {state.sent.map((challenge) => (
              <li key={challenge.id} className="duel-challenge">
                <span>
                  <strong>{challenge.nickname}</strong>님의 응답을 기다리는 중… ({secondsLeft(challenge, now)}초)
                </span>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  aria-label={`${challenge.nickname}님에게 보낸 도전 취소`}
                  onClick={() => challenges.cancel(challenge.id)}
                >
                  취소
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function Received({
  challenge,
  now,
  challenges,
}: {
  challenge: PendingChallenge;
  now: number;
  challenges: Challenges;
}) {
  return (
    <li className="duel-challenge">
      <span>
        <strong>{challenge.nickname}</strong>
        {challenge.rating !== null && <span className="duel-muted"> (레이팅 {challenge.rating})</span>}님이 대결을
        신청했습니다. <span className="duel-challenge-time">{secondsLeft(challenge, now)}초</span>
      </span>
      <span className="duel-challenge-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          aria-label={`${challenge.nickname}님의 도전 수락`}
          onClick={() => challenges.accept(challenge.id)}
        >
          수락
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-label={`${challenge.nickname}님의 도전 거절`}
          onClick={() => challenges.decline(challenge.id)}
        >
          거절
        </button>
      </span>
    </li>
  );
}

/** "대결 신청 받기": read when the menu opens, saved on the server (kept per member) when changed. */
export function ChallengeSetting({ onRefused }: { onRefused: (text: string | null) => void }) {
  const [accepts, setAccepts] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    socketManager.emit("duel_challenge_setting", {}, (reply) => {
      if (reply?.success) setAccepts(reply.accept_challenges);
    });
  }, []);
  const change = (next: boolean) => {
    setAccepts(next);
    setSaving(true);
    socketManager.emit("duel_challenge_setting", { accept_challenges: next }, (reply) => {
      setSaving(false);
      if (reply?.success) setAccepts(reply.accept_challenges);
      else onRefused(refusalOf(reply));
    });
  };
  return (
    <label className="duel-setting">
      <input
        type="checkbox"
        checked={accepts ?? true}
        disabled={accepts === null || saving}
        onChange={(event) => change(event.target.checked)}
      />
      대결 신청 받기
    </label>
  );
}

/** The link that opens /duel with a challenge to this member prepared: copied, and shown to copy by hand. */
export function ChallengeLink({ sid }: { sid: string }) {
  const [shown, setShown] = useState<{ link: string; copied: boolean } | null>(null);
  const copy = () => {
    const link = challengeLink(window.location.origin, sid);
    setShown({ link, copied: false });
    navigator.clipboard?.writeText(link).then(
      () => setShown({ link, copied: true }),
      () => undefined,
    );
  };
  return (
    <div className="duel-link">
      <button type="button" className="btn btn-ghost btn-small" onClick={copy}>
        도전 링크 복사
      </button>
      {shown && (
        <p className="duel-link-text">
          <input
            className="input"
            readOnly
            value={shown.link}
            aria-label="도전 링크"
            onFocus={(e) => e.target.select()}
          />
          <span className="duel-muted" role="status">
            {shown.copied ? "복사했습니다. " : ""}링크를 연 회원이 도전을 보내면 여기에서 수락할 수 있습니다.
          </span>
        </p>
      )}
    </div>
  );
}

/**
 * What a challenge link (`/duel?challenge=<sid>`) opens: a prompt to challenge that member, who then answers with
 * 수락 / 거절. Guests are told to log in; one's own link is only shown back.
 */
export function ChallengeLinkPrompt(props: {
  sid: string;
  users: OnlineUser[];
  mySid: string | null;
  isMember: boolean;
  onChallenge: (user: Pick<OnlineUser, "sid" | "nickname">) => void;
  onClose: () => void;
}) {
  const listed = props.users.find((user) => user.sid === props.sid);
  const nickname = listed?.nickname ?? "링크를 보낸 회원";
  const own = props.sid === props.mySid;
  return (
    <section className="duel-panel duel-challenges" aria-labelledby="duel-link-title">
      <h2 id="duel-link-title">대결 신청 링크</h2>
      {own ? (
        <p>내 도전 링크입니다. 다른 회원에게 보내면 그 회원이 도전을 보낼 수 있습니다.</p>
      ) : props.isMember ? (
        <p>
          <strong>{nickname}</strong>님에게 대결을 신청할까요? 상대가 {CHALLENGE_TTL_MS / 1000}초 안에 수락하면 대결이
          시작됩니다.
        </p>
      ) : (
        <p>
          대결 신청은 회원만 할 수 있습니다. <Link to="/login">로그인</Link>한 뒤 링크를 다시 열어주세요.
        </p>
      )}
      <div className="duel-result-actions">
        {props.isMember && !own && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              props.onChallenge({ sid: props.sid, nickname });
              props.onClose();
            }}
          >
            도전하기
          </button>
        )}
        <button type="button" className="btn btn-ghost" onClick={props.onClose}>
          닫기
        </button>
      </div>
    </section>
  );
}
