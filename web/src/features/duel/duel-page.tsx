import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import {
  type ChangeEvent,
  type CompositionEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useReducer,
  useRef,
  useState,
} from "react";
import type { DuelClientEvents, DuelServerEvents } from "../../../../modules/duel";
import type { ClientPayload, EventPayload } from "../../../../modules/kernel/socket";
import { socketManager, useSocketEvent } from "../../lib/socket";
import { useDocumentTitle } from "../../lib/title";
import { currentUserAtom } from "../session/atoms";
import { isMemberSid } from "./challenge-link";
import { ChallengeLink, ChallengeLinkPrompt, ChallengePanels, ChallengeSetting, useChallenges } from "./challenges";
import { DuelField, ResultDetails, SIDE_TEXT } from "./duel-field";
import {
  type DuelRating,
  type DuelResult,
  type DuelState,
  duelReducer,
  initialDuel,
  type LastDuel,
  type OnlineUser,
  outcomeText,
  type Side,
  splitTyped,
} from "./duel-state";
import { WatchView } from "./watch";

const STATUS_TEXT = { idle: "대기 중", waiting: "매칭 중", in_game: "대결 중" } as const;
/** Spec §9: heartbeat every 5 s, the online list every 30 s, leave 5 s after the end, play again after 0.3 s. */
const HEARTBEAT_MS = 5_000;
const LIST_POLL_MS = 30_000;
const AUTO_LEAVE_MS = 5_000;
const PLAY_AGAIN_MS = 300;

/** The duel's events that carry nothing the server reads: sent with `{}`, as the spec's client does. */
type Signal = {
  [E in keyof DuelClientEvents]: unknown extends ClientPayload<E> ? E : never;
}[keyof DuelClientEvents];
const emit = (event: Signal) => socketManager.emit(event, {});

const duelRoute = getRouteApi("/duel");

/**
 * /duel (spec part 2 §2 "1:1 typing duel", §4 "Duel client flow"; issue 27: direct challenges and watching).
 * `?challenge=<sid>` (a challenge link) opens it with a challenge to that member prepared.
 */
export function DuelPage() {
  useDocumentTitle("1:1 타자 대결");
  const [state, dispatch] = useReducer(duelReducer, initialDuel);
  const [users, setUsers] = useState<OnlineUser[]>([]);
  // The broadcast list is one payload for everyone (its is_me is false): the own entry is found by its sid.
  const [mySid, setMySid] = useState<string | null>(null);
  const isMember = useAtomValue(currentUserAtom) !== null;
  const linked = duelRoute.useSearch().challenge;
  const navigate = useNavigate();
  const challenges = useChallenges();
  const stateRef = useRef(state);
  stateRef.current = state;
  /** The duel this page plays or asked to watch: events of another (one left a moment ago) are dropped. */
  const session = useRef<Following>({ active: null, watching: null });
  // Leaving a duel (or the automatic leave) stops following it.
  useEffect(() => {
    session.current.active = state.sessionId;
  }, [state.sessionId]);

  const refreshList = useCallback(() => {
    socketManager.emit("duel_get_online_users", {}, (answer) => {
      if (!answer?.success || !answer.users) return;
      setUsers(answer.users);
      if (answer.my_sid) setMySid(answer.my_sid);
    });
  }, []);

  useMenuPresence(refreshList);
  useSocketEvent("duel:user_list_update", (payload: { users: OnlineUser[] }) => setUsers(payload.users));
  useDuelEvents(dispatch, refreshList, session);

  // After the end: the list is refreshed at 0.3 s and 1 s, and the duel is left after 5 s if still over.
  useEffect(() => {
    if (state.status !== "finished" || state.phase !== "playing") return;
    const timers = [
      setTimeout(refreshList, 300),
      setTimeout(() => {
        refreshList();
        emit("duel_update_user_list_force");
      }, 1_000),
      setTimeout(() => {
        if (stateRef.current.status !== "finished" || stateRef.current.phase !== "playing") return;
        emit("duel_leave_game");
        // The duel is left on time (spec §9), but its result stays on the menu until the player moves on.
        dispatch({ type: "left_after_end" });
      }, AUTO_LEAVE_MS),
    ];
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [state.status, state.phase, refreshList]);

  const findMatch = () => {
    dispatch({ type: "searching" });
    emit("duel_find_match");
  };
  const cancel = () => {
    emit("duel_cancel_match");
    dispatch({ type: "menu" });
  };
  const leave = () => {
    emit("duel_leave_game");
    dispatch({ type: "menu" });
  };
  const playAgain = () => {
    emit("duel_leave_game");
    dispatch({ type: "menu" });
    setTimeout(findMatch, PLAY_AGAIN_MS);
  };
  const watch = (sessionId: string) => {
    session.current.watching = sessionId;
    socketManager.emit("duel_watch", { session_id: sessionId }, (answer) => {
      if (answer?.success) return;
      session.current.watching = null;
      challenges.tell(answer?.error ?? null);
    });
  };
  const stopWatching = () => {
    session.current.watching = null;
    emit("duel_watch_leave");
    dispatch({ type: "menu" });
    refreshList();
  };
  const closeLink = () => navigate({ to: "/duel", search: {}, replace: true });

  return (
    <div className="duel-page">
      <h1 className="duel-title">1:1 타자 대결</h1>
      <ChallengePanels challenges={challenges} showReceived={state.phase !== "playing"} />
      {linked && state.phase === "menu" && (
        <ChallengeLinkPrompt
          sid={linked}
          users={users}
          mySid={mySid}
          isMember={isMember}
          onChallenge={challenges.challenge}
          onClose={closeLink}
        />
      )}
      {state.phase === "menu" && state.last && (
        <LastResult last={state.last} onPlayAgain={findMatch} onClose={() => dispatch({ type: "dismiss_last" })} />
      )}
      {state.phase === "menu" && (
        <Menu
          users={users.map((user) => ({ ...user, is_me: user.is_me || user.sid === mySid }))}
          mySid={mySid}
          isMember={isMember}
          onFind={findMatch}
          onChallenge={challenges.challenge}
          onWatch={watch}
          onRefused={challenges.tell}
        />
      )}
      {state.phase === "waiting" && (
        <section className="duel-panel duel-waiting" aria-live="polite">
          <p>상대를 찾는 중입니다…</p>
          <button type="button" className="btn btn-ghost" onClick={cancel}>
            취소
          </button>
        </section>
      )}
      {state.phase === "playing" && <Play state={state} onLeave={leave} onPlayAgain={playAgain} />}
      {state.phase === "watching" && <WatchView state={state} onLeave={stopWatching} />}
    </div>
  );
}

function Menu(props: {
  users: OnlineUser[];
  mySid: string | null;
  isMember: boolean;
  onFind: () => void;
  onChallenge: (user: OnlineUser) => void;
  onWatch: (sessionId: string) => void;
  onRefused: (text: string | null) => void;
}) {
  const { users } = props;
  return (
    <section className="duel-panel">
      <div className="duel-menu-header">
        <h2>접속 중인 사용자 ({users.length}명)</h2>
        <button type="button" className="btn btn-primary" onClick={props.onFind}>
          매칭 찾기
        </button>
      </div>
      {props.isMember && props.mySid && (
        <div className="duel-menu-tools">
          <ChallengeSetting onRefused={props.onRefused} />
          <ChallengeLink sid={props.mySid} />
        </div>
      )}
      {users.length === 0 ? (
        <p className="duel-muted">접속 중인 사용자가 없습니다.</p>
      ) : (
        <ul className="duel-users">
          {users.map((user) => (
            <li key={user.sid} className={user.is_me ? "duel-user me" : "duel-user"}>
              <span>
                {user.nickname}
                {user.is_me && <span className="duel-me"> (나)</span>}
              </span>
              <span className="duel-user-actions">
                <span className={`duel-status ${user.status}`}>{STATUS_TEXT[user.status]}</span>
                <UserAction
                  user={user}
                  isMember={props.isMember}
                  onChallenge={props.onChallenge}
                  onWatch={props.onWatch}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A player in a duel can be watched; a member who is not can be challenged (by a member). */
function UserAction(props: {
  user: OnlineUser;
  isMember: boolean;
  onChallenge: (user: OnlineUser) => void;
  onWatch: (sessionId: string) => void;
}) {
  const { user } = props;
  if (user.is_me) return null;
  const sessionId = user.session_id;
  if (user.status === "in_game" && sessionId) {
    return (
      <button
        type="button"
        className="btn btn-ghost btn-small"
        aria-label={`${user.nickname}님의 대결 관전`}
        onClick={() => props.onWatch(sessionId)}
      >
        관전
      </button>
    );
  }
  if (!props.isMember || !isMemberSid(user.sid) || user.status === "in_game") return null;
  return (
    <button
      type="button"
      className="btn btn-ghost btn-small"
      aria-label={`${user.nickname}님에게 도전`}
      onClick={() => props.onChallenge(user)}
    >
      도전
    </button>
  );
}

/** The last duel's result on the menu, after the automatic leave: the overlay's figures and 다시 하기. */
function LastResult({ last, onPlayAgain, onClose }: { last: LastDuel; onPlayAgain: () => void; onClose: () => void }) {
  return (
    <section className="duel-panel duel-last" aria-labelledby="duel-last-title">
      <div className="duel-menu-header">
        <h2 id="duel-last-title">지난 대결 결과</h2>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          닫기
        </button>
      </div>
      <p className="duel-last-outcome">
        <strong>{outcomeText(last.result, last.side)}</strong>
        {last.opponent && <span className="duel-muted"> · 상대 {last.opponent}</span>}
      </p>
      <ResultDetails result={last.result} side={last.side} gone={last.gone} rating={last.rating} />
      <div className="duel-result-actions">
        <button type="button" className="btn btn-primary" onClick={onPlayAgain}>
          다시 하기
        </button>
      </div>
    </section>
  );
}

/**
 * The word box. Space or Enter sends the committed word once, whatever order the browser puts the composition's
 * end and the key in: Chrome sends the key (isComposing) before the composition ends, then the space as text;
 * Safari ends the composition first, then the key (keyCode 229, which cannot be held back); Firefox like Chrome.
 * A key that comes while a syllable composes marks the word to go when the composition ends; whitespace that
 * arrives as text completes a word too (`splitTyped`), except the one that followed a word already sent.
 */
function useWordBox(active: boolean) {
  const [text, setText] = useState("");
  const composing = useRef(false);
  /** Space or Enter came during the composition: send when it ends. */
  const sendOnCommit = useRef<string | null>(null);
  /** A word sent on its key's event, whose space may still arrive as text. */
  const justSent = useRef<string | null>(null);

  const send = (word: string) => {
    if (active && word) socketManager.emit("duel_word_typed", { typed_word: word });
  };
  return {
    value: text,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.target.value;
      if (composing.current) return setText(value);
      const { word, rest } = splitTyped(value, justSent.current);
      justSent.current = null;
      if (word) send(word);
      setText(rest);
    },
    onCompositionStart: () => {
      composing.current = true;
      sendOnCommit.current = null;
      justSent.current = null;
    },
    onCompositionEnd: (event: CompositionEvent<HTMLInputElement>) => {
      composing.current = false;
      const key = sendOnCommit.current;
      sendOnCommit.current = null;
      if (key === null) return;
      const word = event.currentTarget.value.trim();
      send(word);
      justSent.current = key === " " ? word : null;
      setText("");
    },
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key !== " " && event.key !== "Enter") {
        justSent.current = null;
        return;
      }
      if (composing.current || event.nativeEvent.isComposing) {
        sendOnCommit.current = event.key;
        return;
      }
      event.preventDefault();
      const word = event.currentTarget.value.trim();
      send(word);
      // A key the IME reported (229) may still put its space in after this: it is dropped then.
      justSent.current = event.key === " " && event.keyCode === 229 ? word : null;
      setText("");
    },
  };
}

const placeholderOf = (state: DuelState) =>
  state.status === "in_progress"
    ? "단어를 입력하고 스페이스나 엔터"
    : state.status === "finished"
      ? "대결이 끝났습니다"
      : "시작을 기다리는 중";

function Play({ state, onLeave, onPlayAgain }: { state: DuelState; onLeave: () => void; onPlayAgain: () => void }) {
  const box = useWordBox(state.status === "in_progress");
  const side = state.side;
  const other: Side = side === "red" ? "blue" : "red";
  return (
    <section className="duel-play">
      <div className="duel-hud">
        <span className={`duel-side ${side}`}>
          나 ({side ? SIDE_TEXT[side] : ""}) ♥ {side ? state.lives[side] : 0}
        </span>
        <span className="duel-time">남은 시간 {state.remaining}초</span>
        <span className={`duel-side ${other}`}>
          {state.opponent} ({SIDE_TEXT[other]}) ♥ {state.lives[other]}
        </span>
      </div>
      <DuelField
        state={state}
        overlay={
          state.result && (
            <ResultOverlay
              result={state.result}
              side={side}
              gone={state.opponentGone}
              rating={state.rating}
              onLeave={onLeave}
              onPlayAgain={onPlayAgain}
            />
          )
        }
      />
      {state.status !== "finished" && (
        <button type="button" className="btn btn-ghost duel-forfeit" onClick={onLeave}>
          대결 나가기
        </button>
      )}
      <input
        className="duel-input"
        placeholder={placeholderOf(state)}
        aria-label="단어 입력"
        autoComplete="off"
        autoCorrect="off"
        spellCheck={false}
        disabled={state.status === "finished"}
        {...box}
      />
    </section>
  );
}

function ResultOverlay(props: {
  result: DuelResult;
  side: Side | null;
  gone: "left" | "disconnected" | null;
  rating: DuelRating | null;
  onLeave: () => void;
  onPlayAgain: () => void;
}) {
  const { result, side } = props;
  const won = result.winner_side === side;
  return (
    <div className="duel-result" role="dialog" aria-label="대결 결과">
      {won && <Confetti />}
      <h2>{outcomeText(result, side)}</h2>
      <ResultDetails result={result} side={side} gone={props.gone} rating={props.rating} />
      <div className="duel-result-actions">
        <button type="button" className="btn btn-primary" onClick={props.onPlayAgain}>
          다시 하기
        </button>
        <button type="button" className="btn btn-ghost" onClick={props.onLeave}>
          나가기
        </button>
      </div>
    </div>
  );
}

const CONFETTI = Array.from({ length: 60 }, (_, i) => ({
  key: `c${i}`,
  left: `${(i * 37) % 100}%`,
  delay: `${(i % 12) * 0.08}s`,
  hue: (i * 47) % 360,
}));

function Confetti() {
  return (
    <div className="duel-confetti" aria-hidden="true">
      {CONFETTI.map((piece) => (
        <span
          key={piece.key}
          style={{ left: piece.left, animationDelay: piece.delay, background: `hsl(${piece.hue} 80% 55%)` }}
        />
      ))}
    </div>
  );
}

/** In the menu while the page is open: enter/leave, a heartbeat every 5 s and when the tab shows, the list every 30 s. */
function useMenuPresence(refreshList: () => void) {
  useEffect(() => {
    emit("duel_enter_menu");
    refreshList();
    const beat = () => socketManager.emit("duel_heartbeat", { timestamp: Date.now() });
    const heartbeat = setInterval(beat, HEARTBEAT_MS);
    const poll = setInterval(refreshList, LIST_POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") beat();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearInterval(heartbeat);
      clearInterval(poll);
      document.removeEventListener("visibilitychange", onVisible);
      emit("duel_leave_menu");
    };
  }, [refreshList]);
}

/** Which duel the page follows: the one it plays (from `duel:match_found`) or the one it asked to watch. */
interface Following {
  active: string | null;
  watching: string | null;
}

/** The `duel:*` events of one duel (they carry its `session_id`). */
type InDuelEvent = {
  [E in keyof DuelServerEvents]: EventPayload<DuelServerEvents, E> extends { session_id: string } ? E : never;
}[keyof DuelServerEvents];

/** An event of the duel the page follows: a duel left a moment ago may still send a few, which are dropped. */
function useFollowedEvent<E extends InDuelEvent>(
  session: { current: Following },
  event: E,
  handle: (payload: EventPayload<DuelServerEvents, E>) => void,
) {
  useSocketEvent(event, ((payload: EventPayload<DuelServerEvents, E>) => {
    if (payload.session_id === session.current.active) handle(payload);
  }) as never);
}

function useDuelEvents(
  dispatch: (event: Parameters<typeof duelReducer>[1]) => void,
  refreshList: () => void,
  session: { current: Following },
) {
  const now = () => performance.now();
  useSocketEvent("duel:match_found", (p) => {
    session.current = { active: p.session_id, watching: null };
    dispatch({ type: "match_found", side: p.your_side, opponent: p.opponent_nickname, sessionId: p.session_id });
    emit("duel_player_ready");
    refreshList();
  });
  useSocketEvent("duel:watch_state", (p) => {
    if (p.session_id !== session.current.watching) return;
    session.current.active = p.session_id;
    dispatch({ type: "watch_state", state: p.state, countdown: p.countdown, result: p.result, at: now() });
  });
  useFollowedEvent(session, "duel:countdown", (p) => dispatch({ type: "countdown", number: p.countdown }));
  useFollowedEvent(session, "duel:game_start", (p) =>
    dispatch({
      type: "game_start",
      blocks: p.state.word_blocks,
      lives: { red: p.state.red_lives, blue: p.state.blue_lives },
      remaining: p.state.remaining_time,
      at: now(),
    }),
  );
  useFollowedEvent(session, "duel:word_position_update", (p) =>
    dispatch({ type: "position", blockId: p.block_id, status: p.status, speed: p.speed, x: p.x, at: now() }),
  );
  useFollowedEvent(session, "duel:bullet_fired", (p) =>
    dispatch({ type: "bullet", side: p.bullet.side, blockId: p.bullet.target_block_id, at: now() }),
  );
  useFollowedEvent(session, "duel:block_defended", (p) =>
    dispatch({ type: "replaced", blockId: p.block_id, blocks: p.new_blocks, at: now() }),
  );
  useFollowedEvent(session, "duel:new_word", (p) =>
    dispatch({ type: "replaced", blockId: p.replaced_block_id, blocks: p.word_blocks, at: now() }),
  );
  useFollowedEvent(session, "duel:life_update", (p) =>
    dispatch({ type: "lives", side: p.player_side, lives: p.remaining_lives }),
  );
  useFollowedEvent(session, "duel:time_update", (p) => dispatch({ type: "time", remaining: p.remaining_time }));
  useFollowedEvent(session, "duel:game_over", (p) => dispatch({ type: "over", result: p.result }));
  useFollowedEvent(session, "duel:opponent_left", () => dispatch({ type: "opponent_gone", how: "left" }));
  useFollowedEvent(session, "duel:opponent_disconnected", () =>
    dispatch({ type: "opponent_gone", how: "disconnected" }),
  );
  // A member's figures, whatever the page shows now (they may come after the automatic leave).
  useSocketEvent("duel:stats_update", (p) =>
    dispatch({ type: "rating", rating: p.rating, change: p.rating_change, rated: p.rated !== false }),
  );
}
