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
import type { DuelClientEvents } from "../../../../modules/duel";
import type { ClientPayload } from "../../../../modules/kernel/socket";
import { socketManager, useSocketEvent } from "../../lib/socket";
import { useDocumentTitle } from "../../lib/title";
import { DuelCanvas } from "./duel-canvas";
import {
  type BlockView,
  type DuelRating,
  type DuelResult,
  type DuelState,
  duelReducer,
  initialDuel,
  type LastDuel,
  type OnlineUser,
  outcomeText,
  reasonLines,
  type Side,
  splitTyped,
  unratedNote,
} from "./duel-state";

const STATUS_TEXT = { idle: "대기 중", waiting: "매칭 중", in_game: "대결 중" } as const;
const SIDE_TEXT = { red: "빨강", blue: "파랑" } as const;
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

/** /duel (spec part 2 §2 "1:1 typing duel", §4 "Duel client flow"). */
export function DuelPage() {
  useDocumentTitle("1:1 타자 대결");
  const [state, dispatch] = useReducer(duelReducer, initialDuel);
  const [users, setUsers] = useState<OnlineUser[]>([]);
  // The broadcast list is one payload for everyone (its is_me is false): the own entry is found by its sid.
  const [mySid, setMySid] = useState<string | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;

  const refreshList = useCallback(() => {
    socketManager.emit("duel_get_online_users", {}, (answer) => {
      if (!answer?.success || !answer.users) return;
      setUsers(answer.users);
      if (answer.my_sid) setMySid(answer.my_sid);
    });
  }, []);

  useMenuPresence(refreshList);
  useSocketEvent("duel:user_list_update", (payload: { users: OnlineUser[] }) => setUsers(payload.users));
  useDuelEvents(dispatch, refreshList);

  // After the end: the list is refreshed at 0.3 s and 1 s, and the duel is left after 5 s if still over.
  useEffect(() => {
    if (state.status !== "finished") return;
    const timers = [
      setTimeout(refreshList, 300),
      setTimeout(() => {
        refreshList();
        emit("duel_update_user_list_force");
      }, 1_000),
      setTimeout(() => {
        if (stateRef.current.status !== "finished") return;
        emit("duel_leave_game");
        // The duel is left on time (spec §9), but its result stays on the menu until the player moves on.
        dispatch({ type: "left_after_end" });
      }, AUTO_LEAVE_MS),
    ];
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [state.status, refreshList]);

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

  return (
    <div className="duel-page">
      <h1 className="duel-title">1:1 타자 대결</h1>
      {state.phase === "menu" && state.last && (
        <LastResult last={state.last} onPlayAgain={findMatch} onClose={() => dispatch({ type: "dismiss_last" })} />
      )}
      {state.phase === "menu" && (
        <Menu users={users.map((user) => ({ ...user, is_me: user.is_me || user.sid === mySid }))} onFind={findMatch} />
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
    </div>
  );
}

function Menu({ users, onFind }: { users: OnlineUser[]; onFind: () => void }) {
  return (
    <section className="duel-panel">
      <div className="duel-menu-header">
        <h2>접속 중인 사용자 ({users.length}명)</h2>
        <button type="button" className="btn btn-primary" onClick={onFind}>
          매칭 찾기
        </button>
      </div>
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
              <span className={`duel-status ${user.status}`}>{STATUS_TEXT[user.status]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
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
      <div className="duel-field">
        <DuelCanvas blocks={state.blocks} bullets={state.bullets} />
        {state.countdown !== null && <div className="duel-countdown">{state.countdown}</div>}
        {state.status === "waiting" && state.countdown === null && (
          <div className="duel-countdown small">상대를 기다리는 중…</div>
        )}
        {state.result && (
          <ResultOverlay
            result={state.result}
            side={side}
            gone={state.opponentGone}
            rating={state.rating}
            onLeave={onLeave}
            onPlayAgain={onPlayAgain}
          />
        )}
      </div>
      {/* The canvas is not readable by assistive technology: the words on the field, as text. */}
      <ul className="sr-only" aria-label="화면의 단어">
        {state.blocks.map((block) => (
          <li key={block.id} data-word={block.word} data-status={block.status}>
            {block.word}
          </li>
        ))}
      </ul>
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

const signed = (value: number) => (value > 0 ? `+${value}` : `${value}`);

/** Reason (worded from the viewer's side, each fact once), lives, words, duration and the rating change. */
function ResultDetails({
  result,
  side,
  gone,
  rating,
}: {
  result: DuelResult;
  side: Side | null;
  gone: "left" | "disconnected" | null;
  rating: DuelRating | null;
}) {
  const note = unratedNote(result, rating);
  return (
    <>
      {reasonLines(result, side, gone).map((line) => (
        <p key={line} className="duel-reason">
          {line}
        </p>
      ))}
      <dl className="duel-result-figures">
        <dt>남은 생명</dt>
        <dd>
          빨강 {result.red_remaining_lives} · 파랑 {result.blue_remaining_lives}
        </dd>
        <dt>입력한 단어</dt>
        <dd>
          빨강 {result.red_words_typed} · 파랑 {result.blue_words_typed}
        </dd>
        <dt>대결 시간</dt>
        <dd>{Math.round(result.game_duration)}초</dd>
        {result.rated === false ? (
          <>
            <dt>레이팅</dt>
            <dd>변동 없음</dd>
          </>
        ) : (
          rating && (
            <>
              <dt>레이팅</dt>
              <dd>{rating.rated ? `${rating.rating} (${signed(rating.change)})` : `${rating.rating} (변동 없음)`}</dd>
            </>
          )
        )}
      </dl>
      {note && <p className="duel-reason">{note}</p>}
    </>
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

function useDuelEvents(dispatch: (event: Parameters<typeof duelReducer>[1]) => void, refreshList: () => void) {
  const now = () => performance.now();
  useSocketEvent("duel:match_found", (p: { your_side: Side; opponent_nickname: string }) => {
    dispatch({ type: "match_found", side: p.your_side, opponent: p.opponent_nickname });
    emit("duel_player_ready");
    refreshList();
  });
  useSocketEvent("duel:countdown", (p: { countdown: number }) => dispatch({ type: "countdown", number: p.countdown }));
  useSocketEvent(
    "duel:game_start",
    (p: { state: { word_blocks: BlockView[]; red_lives: number; blue_lives: number; remaining_time: number } }) =>
      dispatch({
        type: "game_start",
        blocks: p.state.word_blocks,
        lives: { red: p.state.red_lives, blue: p.state.blue_lives },
        remaining: p.state.remaining_time,
        at: now(),
      }),
  );
  useSocketEvent(
    "duel:word_position_update",
    (p: { block_id: number; status: BlockView["status"]; speed: number; x?: number }) =>
      dispatch({ type: "position", blockId: p.block_id, status: p.status, speed: p.speed, x: p.x, at: now() }),
  );
  useSocketEvent("duel:bullet_fired", (p: { bullet: { side: Side; target_block_id: number } }) =>
    dispatch({ type: "bullet", side: p.bullet.side, blockId: p.bullet.target_block_id, at: now() }),
  );
  useSocketEvent("duel:block_defended", (p: { block_id: number; new_blocks: BlockView[] }) =>
    dispatch({ type: "replaced", blockId: p.block_id, blocks: p.new_blocks, at: now() }),
  );
  useSocketEvent("duel:new_word", (p: { replaced_block_id: number; word_blocks: BlockView[] }) =>
    dispatch({ type: "replaced", blockId: p.replaced_block_id, blocks: p.word_blocks, at: now() }),
  );
  useSocketEvent("duel:life_update", (p: { player_side: Side; remaining_lives: number }) =>
    dispatch({ type: "lives", side: p.player_side, lives: p.remaining_lives }),
  );
  useSocketEvent("duel:time_update", (p: { remaining_time: number }) =>
    dispatch({ type: "time", remaining: p.remaining_time }),
  );
  useSocketEvent("duel:game_over", (p: { result: DuelResult }) => dispatch({ type: "over", result: p.result }));
  useSocketEvent("duel:opponent_left", () => dispatch({ type: "opponent_gone", how: "left" }));
  useSocketEvent("duel:opponent_disconnected", () => dispatch({ type: "opponent_gone", how: "disconnected" }));
  useSocketEvent("duel:stats_update", (p: { rating: number; rating_change: number; rated?: boolean }) =>
    dispatch({ type: "rating", rating: p.rating, change: p.rating_change, rated: p.rated !== false }),
  );
}
