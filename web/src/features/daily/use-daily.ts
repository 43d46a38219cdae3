import { useCallback, useEffect, useRef, useState } from "react";
import { ProgressSender } from "../../lib/progress-sender";
import { socketManager } from "../../lib/socket";
import { dailyApi } from "./daily-api";
import type { BestEntry, DailyOverview, DailyResultView, DailyStateView } from "./types";

const NO_SOCKET = "서버에 연결되어 있지 않습니다. 잠시 후 다시 시도해주세요.";

/**
 * The page's game: joins today's game on every (re)connect, follows its state, countdown and results, sends the
 * answer box as steps (at most 10 a second, the last change always: `ProgressSender`) and the answer after the
 * last step; reloads the board after each stored attempt. Keeps the player's best of the day (the join's answer,
 * then each result's: guests have one too), whose replay is the ghost "내 최고 기록".
 */
export function useDaily() {
  const [state, setState] = useState<DailyStateView | null>(null);
  const [countdown, setCountdown] = useState<number | null>(null);
  const [result, setResult] = useState<DailyResultView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [overview, setOverview] = useState<DailyOverview | null>(null);
  const [boardFailed, setBoardFailed] = useState(false);
  const [myBest, setMyBest] = useState<BestEntry | null>(null);
  const sender = useRef(new ProgressSender((text) => socketManager.emit("daily:progress", { typed_text: text })));

  const reloadBoard = useCallback(() => {
    dailyApi.overview().then(
      (next) => {
        setOverview(next);
        setBoardFailed(false);
      },
      () => setBoardFailed(true),
    );
  }, []);

  useEffect(() => {
    reloadBoard();
    const offs = [
      socketManager.subscribe("daily:state", (next) => {
        setState(next);
        if (next.status === "countdown") {
          sender.current.reset();
          setResult(null);
        }
      }),
      socketManager.subscribe("daily:countdown", (payload) => setCountdown(payload.number)),
      socketManager.subscribe("daily:result", (payload) => {
        setResult(payload);
        if (payload.best) setMyBest(payload.best);
        reloadBoard();
      }),
      socketManager.subscribe("error", (error) => {
        if (error?.event?.startsWith("daily:")) setNotice(error.message);
      }),
    ];
    const stopJoining = socketManager.joinOn(null, () =>
      socketManager.emit("daily:join", {}, (answer) => {
        if (answer.success) setMyBest(answer.best);
      }),
    );
    return () => {
      for (const off of offs) off();
      stopJoining();
      if (socketManager.getSocket().connected) socketManager.emit("daily:leave", {});
    };
  }, [reloadBoard]);

  const start = useCallback(() => {
    if (!socketManager.getSocket().connected) return setNotice(NO_SOCKET);
    setNotice(null);
    socketManager.emit("daily:start", {});
  }, []);

  const typed = useCallback((text: string) => sender.current.update(text), []);

  const submit = useCallback((text: string) => {
    if (!socketManager.getSocket().connected) return setNotice(NO_SOCKET);
    // The server's last step must be the answer (otherwise it is refused as differing from what was typed).
    sender.current.update(text);
    sender.current.flush();
    socketManager.emit("daily:submit", { typed_text: text });
  }, []);

  return { state, countdown, result, notice, overview, boardFailed, myBest, start, typed, submit };
}
