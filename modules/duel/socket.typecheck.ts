/**
 * Type-level checks of the duel's challenge and watching events (kernel README "The wire contract"), run by `tsc`,
 * never executed: each `@ts-expect-error` line must stay an error.
 */
import type { GameEmitter } from "../kernel/game-host";
import type { ClientAnswer, ClientPayload } from "../kernel/socket";

export function serverSide(emitter: GameEmitter) {
  emitter.toUser(1, "duel:challenge_received", {
    challenge_id: "c1",
    from: { sid: "u_2", nickname: "도전자", rating: 1500 },
    expires_in: 15,
  });
  const unrated = { sid: "u_2", nickname: "도전자" };
  // @ts-expect-error: the challenger's rating is missing
  emitter.toUser(1, "duel:challenge_received", { challenge_id: "c1", from: unrated, expires_in: 15 });
  emitter.toSockets(["s1"], "duel:challenge_closed", { challenge_id: "c1", reason: "declined", message: "거절" });
  // @ts-expect-error: no such reason
  emitter.toSockets(["s1"], "duel:challenge_closed", { challenge_id: "c1", reason: "ignored", message: "무시" });
  emitter.toChannel("duel:d1:watchers", "duel:watch_chat", {
    session_id: "d1",
    sid: "g_0123456789ab",
    nickname: "guest_1234",
    message: "안녕하세요",
    timestamp: "2026-05-04T03:00:00.000Z",
  });
  // @ts-expect-error: a chat line names who sent it
  emitter.toChannel("duel:d1:watchers", "duel:watch_chat", { session_id: "d1", message: "안녕하세요" });
}

export function clientSide(
  challenge: ClientPayload<"duel_challenge">,
  watch: ClientPayload<"duel_watch">,
  answer: ClientAnswer<"duel_challenge_accept">,
) {
  const sid: string = challenge.sid;
  const session: string = watch.session_id;
  // @ts-expect-error: a challenge names the sid, not a user id
  void challenge.user_id;
  // @ts-expect-error: a refusal has no session id: the answer must be narrowed first
  void answer.session_id;
  return [sid, session];
}
