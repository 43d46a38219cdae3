import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { badRequest, conflict, forbidden } from "../kernel/errors";
import { type GameEmitter, memberPlayerId, playerIdOf } from "../kernel/game-host";
import type { AppSocket, SocketIdentity } from "../kernel/socket";
import type { Challenge, DuelLobby } from "./lobby";
import { playerOf } from "./members";
import { CHALLENGE_CLOSED_TEXT, type ChallengeClosedReason, DUEL_MESSAGES } from "./messages";
import { CHALLENGE_TTL_MS } from "./rules";
import type { DuelStore } from "./store";

/** What the challenges use of the duel's runtime. */
export interface ChallengeDeps {
  ctx: ModuleContext;
  lobby: DuelLobby;
  store: DuelStore;
  emitter: GameEmitter;
  /** A player with no heartbeat for this long is not listed: not challengeable (runtime settings). */
  heartbeatTimeoutMs: number;
  /** Players moved into a new duel: the online list changed. */
  listChanged(): void;
}

const gone = () => conflict(DUEL_MESSAGES.challengeGone, "challenge_gone");

/** The member behind a socket; a guest is refused (challenges are between members). */
function memberOf(identity: SocketIdentity) {
  if (identity.kind !== "user") throw forbidden(DUEL_MESSAGES.membersOnly, "members_only");
  return identity;
}

/**
 * Direct challenges (README "Direct challenges"): a member challenges one listed member, who accepts or declines
 * within `CHALLENGE_TTL_MS`; an accepted challenge is announced like a matched pair, so the duel is made, seated,
 * played, stored and rated exactly as a matched one (the pair's daily rating limit included). The pending challenge
 * lives in the lobby (Redis with several processes), so either side may be on any process; the challenger's process
 * keeps a timer per challenge its sockets made and, when its time is up, drops it and tells both sides. A refusal
 * is an `AppError` (the dispatcher's `error` event and the acknowledgement), in Korean.
 */
export class DuelChallenges {
  /** The challenges this process's sockets made, each with the timer that expires it. */
  private readonly outgoing = new Map<string, { challenge: Challenge; timer: TimerHandle }>();

  constructor(private readonly deps: ChallengeDeps) {}

  private get now() {
    return this.deps.ctx.clock.now();
  }

  /** `duel_challenge {sid}`: refused for a guest on either side, oneself, an unlisted or busy member, … */
  async challenge(socket: AppSocket, sid: string) {
    const { lobby, store } = this.deps;
    const identity = memberOf(socket.data.identity);
    if (sid.startsWith("g_")) throw badRequest(DUEL_MESSAGES.guestTarget, "guest_target");
    const targetId = Number(sid.slice(2));
    if (targetId === identity.userId) throw badRequest(DUEL_MESSAGES.self, "self");
    const me = playerOf(identity);
    const staleBefore = this.now - this.deps.heartbeatTimeoutMs;
    const [mine, theirs] = await Promise.all([
      lobby.presence(me.id, staleBefore),
      lobby.presence(memberPlayerId(targetId), staleBefore),
    ]);
    if (mine.status === "in_game") throw conflict(DUEL_MESSAGES.challengerInGame, "already_in_game");
    if (!theirs.listed) throw conflict(DUEL_MESSAGES.offline, "offline");
    if (theirs.status === "in_game") throw conflict(DUEL_MESSAGES.targetInGame, "target_in_game");
    const [accepts, myRating, theirRating] = await Promise.all([
      store.acceptsChallenges(targetId),
      store.rating(identity.userId),
      store.rating(targetId),
    ]);
    if (!accepts) throw forbidden(DUEL_MESSAGES.challengesOff, "challenges_off");
    const now = this.now;
    const challenge: Challenge = {
      id: crypto.randomUUID(),
      from: { player: { ...me, rating: myRating }, process: lobby.processId, socketId: socket.id },
      to: { ...theirs.listed, rating: theirRating },
      expiresAt: now + CHALLENGE_TTL_MS,
    };
    if (!(await lobby.createChallenge(challenge, now))) throw conflict(DUEL_MESSAGES.pending, "challenge_pending");
    const timer = this.deps.ctx.clock.setTimeout(() => this.expire(challenge.id), CHALLENGE_TTL_MS);
    this.outgoing.set(challenge.id, { challenge, timer });
    const expiresIn = CHALLENGE_TTL_MS / 1000;
    this.deps.emitter.toUser(targetId, "duel:challenge_received", {
      challenge_id: challenge.id,
      from: { sid: me.key, nickname: me.name, rating: Math.round(myRating) },
      expires_in: expiresIn,
    });
    // The socket went while the challenge was being made: its disconnect found nothing to take back.
    if (!socket.connected) await this.withdraw(challenge.id, "cancelled");
    return { success: true as const, challenge_id: challenge.id, expires_in: expiresIn };
  }

  /**
   * `duel_challenge_accept`: the challenged member's socket takes the challenge and both players are in a new duel,
   * announced like a match (red: the challenger's socket; blue: this one), so each process seats its own socket.
   */
  async accept(socket: AppSocket, challengeId: string) {
    const { lobby } = this.deps;
    const identity = memberOf(socket.data.identity);
    const now = this.now;
    const challenge = await lobby.challenge(challengeId, now);
    if (!challenge || challenge.to.id !== playerIdOf(identity)) throw gone();
    const sessionId = crypto.randomUUID();
    const outcome = await lobby.acceptChallenge(challenge, sessionId, now);
    if (outcome === "gone") throw gone();
    this.forget(challenge.id);
    if (outcome !== "accepted") {
      this.closed(challenge, "busy");
      if (outcome === "accepter_in_game") throw conflict(DUEL_MESSAGES.accepterInGame, "already_in_game");
      throw conflict(DUEL_MESSAGES.challengerBusy, "target_in_game");
    }
    this.closed(challenge, "accepted");
    const blue = { player: challenge.to, process: lobby.processId, socketId: socket.id };
    await lobby.announce({ sessionId, red: challenge.from, blue });
    this.deps.listChanged();
    return { success: true as const, session_id: sessionId };
  }

  /** `duel_challenge_decline`: only the challenged member; the challenger hears it. */
  async decline(socket: AppSocket, challengeId: string) {
    const identity = memberOf(socket.data.identity);
    const challenge = await this.deps.lobby.challenge(challengeId, this.now);
    if (!challenge || challenge.to.id !== playerIdOf(identity)) throw gone();
    if (!(await this.drop(challenge, "declined"))) throw gone();
  }

  /** `duel_challenge_cancel`: only the challenger takes it back; the challenged member's prompt goes. */
  async cancel(socket: AppSocket, challengeId: string) {
    const identity = memberOf(socket.data.identity);
    const challenge = await this.deps.lobby.challenge(challengeId, this.now);
    if (!challenge || challenge.from.player.id !== playerIdOf(identity)) throw gone();
    if (!(await this.drop(challenge, "cancelled"))) throw gone();
  }

  /** `duel_challenge_setting`: reads, or sets, whether the member takes challenges. */
  async setting(socket: AppSocket, accept: boolean | undefined) {
    const { userId } = memberOf(socket.data.identity);
    const { store } = this.deps;
    if (accept !== undefined) await store.setAcceptsChallenges(userId, accept, this.now);
    return { success: true as const, accept_challenges: accept ?? (await store.acceptsChallenges(userId)) };
  }

  /** The challenging socket left the menu or disconnected: its pending challenges are taken back. */
  async withdrawAllOf(socketId: string) {
    for (const [id, { challenge }] of [...this.outgoing]) {
      if (challenge.from.socketId === socketId) await this.withdraw(id, "cancelled");
    }
  }

  private expire(challengeId: string) {
    this.withdraw(challengeId, "expired").catch((error: unknown) =>
      this.deps.ctx.log.error("expiring a duel challenge failed", { error: String(error) }),
    );
  }

  private async withdraw(challengeId: string, reason: ChallengeClosedReason) {
    const entry = this.outgoing.get(challengeId);
    this.forget(challengeId);
    if (entry) await this.drop(entry.challenge, reason);
  }

  /** Takes the challenge out of the lobby; the one call that did tells both sides. */
  private async drop(challenge: Challenge, reason: ChallengeClosedReason) {
    if (!(await this.deps.lobby.dropChallenge(challenge))) return false;
    this.forget(challenge.id);
    this.closed(challenge, reason);
    return true;
  }

  private forget(challengeId: string) {
    const entry = this.outgoing.get(challengeId);
    if (!entry) return;
    this.deps.ctx.clock.clearTimeout(entry.timer);
    this.outgoing.delete(challengeId);
  }

  /** `duel:challenge_closed` to the challenging socket and every socket of the challenged member. */
  private closed(challenge: Challenge, reason: ChallengeClosedReason) {
    const payload = { challenge_id: challenge.id, reason, message: CHALLENGE_CLOSED_TEXT[reason] };
    this.deps.emitter.toSockets([challenge.from.socketId], "duel:challenge_closed", payload);
    if (challenge.to.userId !== null) this.deps.emitter.toUser(challenge.to.userId, "duel:challenge_closed", payload);
  }

  /** Shutdown: no timer left behind (the lobby's records expire on their own). */
  stop() {
    for (const { timer } of this.outgoing.values()) this.deps.ctx.clock.clearTimeout(timer);
    this.outgoing.clear();
  }
}
