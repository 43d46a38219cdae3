import type { GameRewardDelta } from "../accounts";
import { newReplayKey } from "../games";
import { chatHistory } from "../kernel/chat-history";
import type { ModuleContext } from "../kernel/define-module";
import {
  CoalescedFrame,
  type GamePresenter,
  type GameScheduler,
  type InputResult,
  refusal,
  type WatcherOptions,
} from "../kernel/game-host";
import type { GameRef } from "../kernel/game-mode";
import { LaneBoard, type LaneFigures, largestStep } from "../kernel/race-steps";
import { maskChat, speechRefusal } from "../kernel/speech";
import type { ChatCommand, MemberData, RoomGame, RoomMember } from "./members";
import { type PrivateSettings, presentPrivate } from "./private-room";
import { PRIVATE_MSG } from "./private-rules";
import { poolThemeOf } from "./private-store";
import { abandonGame, type FinishedRecord, finishRaceGame, recordRaceResult } from "./records";
import {
  countsOf,
  gameStateOf,
  guestEntry,
  iso,
  isSpectator,
  presentRoom,
  userEntry,
  usersUpdateOf,
} from "./room-view";
import type { RoomRow } from "./schema";
import {
  type FinishedGame,
  isChatAnswer,
  isChatSubmission,
  type RaceEffect,
  type RaceMode,
  type RacePlayer,
  type RaceResult,
  type RaceState,
  type RejectedAttempt,
  type Sentence,
  withPool,
} from "./sentence-race";
import { ROOM_MESSAGES, type RoomsSettings } from "./settings";
import type { Lane } from "./wire";

/** `game:progress_update` goes out at most this often per room (5 a second, product-rules "Live race and replays"). */
export const LANES_FRAME_MS = 200;

/**
 * What a room's presenter reads from the rest of the module (the runtime provides it). It tells the runtime nothing:
 * what the runtime reacts to (a player out, the room's listing changed) it hears from the host's lifecycle events.
 */
export interface PresenterEnv {
  ctx: ModuleContext;
  settings: RoomsSettings;
  /** The theme's sentences as loaded, at once (never waits for the database; a stale pool reloads meanwhile). */
  pool(theme: string): Sentence[];
}

/** The round whose records were written and that is not closed yet: a fault must still close it. */
interface OpenRound {
  ref: GameRef;
  /** Results written so far that count (not implausible). */
  counted: number;
}

/**
 * A room's spectators are its watchers (kernel game-host README "Watchers"): they get the room's events after its
 * racers, at most five frames a second, the lanes of one frame merged (each frame carries only the lanes that
 * changed, so a newer frame's lanes replace the older's, racer by racer).
 */
export const ROOM_WATCHERS: WatcherOptions<RacePlayer> = {
  is: (player) => player.spectator === true,
  merges: {
    "game:progress_update": (older, newer) => {
      const lanes = new Map(older.participants.map((lane) => [lane.key, lane]));
      for (const lane of newer.participants) lanes.set(lane.key, lane);
      return { ...newer, participants: [...lanes.values()] };
    },
  },
};

/**
 * The sentence race's presenter for one room: the race's effects become the room's socket events (spec part 1 §7)
 * and the games module's writes; joins, leaves, chat and resets are announced as rooms always did.
 *
 * Writes: each accepted result is queued for `recordResult` at once (an implausible attempt too, flagged), and
 * `game:submission_complete` and `game:personal_feedback` go out once it is stored, so an acknowledged result
 * survives a stop or a crash of the process, even a SIGKILL. The finish queues one write (medals, then rewards paid once per member); `game:results`, its
 * chat line and `user:stats_update` go out from that write's `done`, or without rewards from its `failed`.
 */
export class RoomPresenter implements GamePresenter<RaceMode, RacePlayer, MemberData, ChatCommand> {
  private open: OpenRound | null = null;
  /** The round's lanes by wire key (user id, or a guest's session id), and each racer's name. */
  private readonly lanes = new LaneBoard<string>();
  private readonly laneNames = new Map<string, { key: number | string; name: string }>();
  private readonly frame: CoalescedFrame;
  private host: RoomGame | null = null;

  /**
   * `room` is replaced when a private room's owner changes its texts; `privateRoom` (null: a public room) by every
   * owner's action (RoomHost `act`).
   */
  constructor(
    public room: RoomRow,
    private readonly env: PresenterEnv,
    scheduler: GameScheduler,
    public privateRoom: PrivateSettings | null = null,
  ) {
    this.frame = new CoalescedFrame(scheduler, {
      everyMs: LANES_FRAME_MS,
      ready: () => this.host?.running === true && this.lanes.pending,
      send: () => this.sendLanes(this.host!),
      failed: (error) =>
        this.ctx.log.error("room lanes could not be sent", { room_id: this.room.id, error: String(error) }),
    });
  }

  private get ctx() {
    return this.env.ctx;
  }

  /** The room's game is gone from this process: no lane frame is sent any more. */
  stop() {
    this.frame.cancel();
  }

  // --- the lanes, coalesced -----------------------------------------------------------------------------------

  /**
   * A racer's figures changed: kept on the board, and ONE job on the process's shared scheduler sends the changed
   * lanes at most once per `LANES_FRAME_MS` (at once when the last frame is older): twenty racers typing ten steps
   * a second cost the room five frames a second, and no room owns a timer.
   */
  private setLane(host: RoomGame, who: { userId: number | null; sessionId: string; name: string }, lane: LaneFigures) {
    const key = who.userId ?? who.sessionId;
    const id = String(key);
    this.laneNames.set(id, { key, name: who.name });
    this.lanes.set(id, lane);
    this.host = host;
    if (this.lanes.pending) this.frame.request();
  }

  private laneEntries(entries: [string, LaneFigures][]): Lane[] {
    return entries.map(([id, figures]) => ({ ...this.laneNames.get(id)!, ...figures }));
  }

  private sendLanes(host: RoomGame) {
    host.broadcast("game:progress_update", {
      room_id: this.room.id,
      participants: this.laneEntries(this.lanes.flush()),
    });
  }

  private clearLanes() {
    this.lanes.clear();
    this.laneNames.clear();
    this.frame.cancel();
  }

  /** The lane of a finished attempt: its place, the result's speed; a placed answer reaches the line. */
  private completeLane(host: RoomGame, result: RaceResult, placed: boolean) {
    const before = this.lanes.get(String(result.userId ?? result.sessionId));
    const lane: LaneFigures = {
      progress: result.position !== null ? 1 : (before?.progress ?? 0),
      wpm: placed ? result.wpm : (before?.wpm ?? 0),
      completed: true,
    };
    if (result.position !== null) lane.position = result.position;
    this.setLane(host, result, lane);
  }

  /**
   * A new player fits unless the room is full or already holds `guestsPerAddress` guests from this guest's address.
   * Decided here, by the host, because with several processes only the owner sees every member.
   */
  admit(host: RoomGame, player: RacePlayer, data: MemberData): InputResult | undefined {
    // Checked where the room runs too: a process taking the room over re-seats the sockets it remembered.
    if (this.privateRoom?.removed.includes(player.sessionId)) return refusal(PRIVATE_MSG.removed, "removed");
    // A spectator takes no place: it never fills the room nor its address's share of guests.
    if (player.spectator) return undefined;
    if (countsOf(host).total_participants >= this.room.maxUsers) return refusal(ROOM_MESSAGES.full, "room_full");
    if (data.kind !== "guest") return undefined;
    let guests = 0;
    for (const member of host.members()) if (!isSpectator(member) && member.data.address === data.address) guests++;
    if (guests >= this.env.settings.guestsPerAddress) return refusal(ROOM_MESSAGES.tooManyGuests, "too_many_guests");
    return undefined;
  }

  // --- the race's effects -------------------------------------------------------------------------------------

  effect(host: RoomGame, effect: RaceEffect) {
    const room_id = this.room.id;
    switch (effect.type) {
      case "state":
        host.broadcast("game:state", gameStateOf(host));
        host.listingChanged();
        return;
      case "countdown_message":
        host.broadcast("game:countdown_message", {
          room_id,
          message: `${effect.seconds}초 후 게임이 시작됩니다!`,
          seconds: effect.seconds,
        });
        return;
      case "countdown_number":
        host.broadcast("game:countdown_number", { room_id, number: effect.number });
        host.listingChanged();
        return;
      case "end_countdown_message":
        host.broadcast("game:end_countdown_message", {
          room_id,
          message: `게임 종료까지 ${effect.seconds}초 남았습니다!`,
          seconds: effect.seconds,
        });
        return;
      case "end_countdown_number":
        host.broadcast("game:end_countdown_number", { room_id, number: effect.number });
        return;
      case "problem":
        this.clearLanes(); // a new round: everyone starts from the line
        host.broadcast("chat:message", {
          ...this.systemFields(host, "problem"),
          message: effect.sentence.text,
          sentence_id: effect.sentence.id,
          game_duration: effect.gameDuration,
        });
        return;
      case "progress": {
        const member = host.member(effect.playerId);
        if (!member) return;
        const { progress, wpm } = effect;
        this.setLane(host, member.player, { progress, wpm, completed: false });
        return;
      }
      case "submitted":
        this.completeLane(host, effect.result, true);
        // Told once stored: an acknowledged result is never lost, even if this process dies a moment later.
        this.record(host, effect.result, false, this.submissionAnnouncement(host, effect.result));
        return;
      case "implausible":
        this.completeLane(host, effect.attempt.result, false);
        this.logImplausible(effect.attempt);
        this.record(host, effect.attempt.result, true);
        return;
      case "finished":
        this.frame.flush(); // the last finisher's lane, with its place, before the results
        this.finish(host, effect.game);
        return;
      case "owner":
        this.announcePrivate(host);
        return;
      case "ready":
        host.broadcast("room:rematch", this.rematchOf(host));
        return;
    }
  }

  /** `room:private_update`: the private room's owner, code, automatic rounds or texts changed. */
  announcePrivate(host: RoomGame) {
    if (!this.privateRoom) return;
    host.broadcast("room:private_update", presentPrivate(this.room, this.privateRoom));
  }

  /** Who asked for another round ("다시 하기"), by public session id, of how many racers. */
  rematchOf(host: RoomGame) {
    const ready = host.state.ready.flatMap((id) => host.member(id)?.player.sessionId ?? []);
    return { room_id: this.room.id, ready, players: host.state.players.length };
  }

  /** The submission's announcement as of now (counts included), to send once the result is stored. */
  private submissionAnnouncement(host: RoomGame, result: RaceResult) {
    const payload = this.resultPayload(result);
    const complete = {
      ...payload,
      user_id: result.userId,
      username: result.name,
      nickname: result.name,
      is_anonymous: result.userId === null,
      completed_count: host.state.results.length,
      total_players: host.state.players.length,
    };
    // The submitter's sockets as they are now: one that left the room meanwhile still hears how its answer did.
    const sockets = [...(host.member(result.playerId)?.sockets ?? [])];
    return (replayKey: string | null) => {
      host.broadcast("game:submission_complete", { ...complete, replay_key: replayKey });
      for (const socketId of sockets) host.sendToSocket(socketId, "game:personal_feedback", payload);
    };
  }

  private resultPayload(result: RaceResult) {
    return {
      room_id: this.room.id,
      sentence_id: result.sentenceId,
      position: result.position,
      wpm: result.wpm,
      accuracy: result.accuracy,
      completion_time: result.completionTime,
      error_count: result.errorCount,
      session_id: result.sessionId,
    };
  }

  private logImplausible(attempt: RejectedAttempt) {
    this.ctx.log.warn("implausible typing result rejected", {
      room_id: this.room.id,
      player: attempt.result.sessionId,
      user_id: attempt.result.userId,
      server_seconds: attempt.serverSeconds,
      client_seconds: attempt.clientSeconds,
      raw_speed: attempt.rawSpeed,
      typed_length: attempt.typedLength,
      // Why the steps refused it (a burst, an answer other than the last step, too fast), when they did.
      steps_reason:
        attempt.stepsVerdict.verified || !attempt.stepsVerdict.implausible ? null : attempt.stepsVerdict.reason,
      steps: attempt.result.steps.length,
      largest_step: largestStep(attempt.result.steps),
    });
  }

  /**
   * Queues the result's write; the round stays open (to be closed) from its first record on. `announce` runs once
   * it is stored (or, should every try fail, anyway: the player is not left waiting).
   */
  private record(
    host: RoomGame,
    result: RaceResult,
    implausible: boolean,
    announce?: (replayKey: string | null) => void,
  ) {
    const ref = host.gameRef()!;
    const counted = (this.open?.ref.round === ref.round ? this.open.counted : 0) + (implausible ? 0 : 1);
    this.open = { ref, counted };
    // The replay's key is drawn once, before the write: every retry stores the same replay.
    const sentence = host.state.sentence;
    const replay = sentence?.id === result.sentenceId ? { key: newReplayKey(), sentence: sentence.text } : null;
    host.write({
      name: "record_result",
      run: () => recordRaceResult(this.ctx, ref, result, implausible, replay, host.state.settings.ranked),
      done: (outcome) => announce?.(outcome.replayKey),
      failed: () => announce?.(null),
    });
  }

  /** A round with records is closed by one write; the results are announced when it is done (or has failed). */
  private finish(host: RoomGame, game: FinishedGame) {
    const ref = host.gameRef()!;
    const recorded = this.open?.ref.round === ref.round;
    this.open = null;
    if (!recorded) {
      this.announceResults(host, game, null); // nothing to store: a round nobody answered
      return;
    }
    host.write({
      name: "finish_game",
      run: () => finishRaceGame(this.ctx, ref, game),
      done: (record) => this.announceResults(host, game, record),
      failed: () => this.announceResults(host, game, null),
    });
  }

  /** game:results and its chat line; with the stored record also the rewards, new figures and the bus event. */
  private announceResults(host: RoomGame, game: FinishedGame, record: FinishedRecord | null) {
    const results = game.standings.map((s) => ({
      position: s.position,
      user_id: s.userId,
      username: s.name,
      nickname: s.name,
      session_id: s.sessionId,
      is_anonymous: s.userId === null,
      wpm: s.wpm,
      accuracy: s.accuracy,
      completion_time: s.completionTime,
      error_count: s.errorCount,
      // A member's streak is the stored one (across rooms); a guest's is counted in this room.
      win_streak: (s.userId === null ? undefined : record?.figures.get(s.userId)?.win_streak) ?? s.winStreak,
      rewards: s.rewards && record ? publicRewards(s.rewards) : null,
    }));
    const room_id = this.room.id;
    host.broadcast("game:results", {
      room_id,
      sentence_id: game.sentence.id,
      participants: game.participants,
      results,
    });
    host.broadcast("chat:message", {
      ...this.systemFields(host, "result"),
      message: summary(results),
      sentence_id: game.sentence.id,
      results,
    });
    if (!record) return;
    this.announceFigures(host, game, record);
    this.publish(game, record.gameId);
  }

  private announceFigures(host: RoomGame, game: FinishedGame, record: FinishedRecord) {
    for (const entry of game.standings) {
      const figures = entry.userId === null ? undefined : record.figures.get(entry.userId);
      if (!figures || !entry.rewards) continue;
      const { email: _email, already_granted: _paid, ...visible } = figures;
      host.sendToUser(figures.id, "user:stats_update", {
        ...visible,
        user_id: figures.id,
        room_id: this.room.id,
        rewards: publicRewards(entry.rewards),
      });
      const member = host.member(entry.playerId);
      if (member) {
        member.data.profile = {
          level: figures.level,
          gold_medals: figures.gold_medals,
          silver_medals: figures.silver_medals,
          bronze_medals: figures.bronze_medals,
        };
      }
    }
    // Levels and medals in the participants panel changed.
    if (record.figures.size === 0) return;
    host.broadcast("room:users_update", usersUpdateOf(this.room, host));
    host.listingChanged();
  }

  /** `rooms.game_finished` for in-process listeners, with the games module's id of the game. */
  private publish(game: FinishedGame, gameId: number) {
    this.ctx.events.emit("rooms.game_finished", {
      gameId,
      roomId: this.room.id,
      roomName: this.room.name,
      sentenceId: game.sentence.id,
      startedAt: game.startedAt,
      finishedAt: game.finishedAt,
      participants: game.participants,
      results: game.standings.map((s) => ({
        userId: s.userId,
        nickname: s.name,
        playerKey: s.sessionId,
        wpm: s.wpm,
        accuracy: s.accuracy,
        errorCount: s.errorCount,
        completionTime: s.completionTime,
        position: s.position,
        winStreak: s.winStreak,
      })),
    });
  }

  // --- members ------------------------------------------------------------------------------------------------

  welcome(host: RoomGame, member: RoomMember, socketId: string) {
    const mine = host.state.results.find((r) => r.playerId === member.player.id);
    const base = {
      room_id: this.room.id,
      room: presentRoom(this.room, host),
      game_state: gameStateOf(host),
      session_id: member.player.sessionId,
      my_result: mine ? this.resultPayload(mine) : null,
      spectating: isSpectator(member),
      private: this.privateRoom && presentPrivate(this.room, this.privateRoom),
    };
    if (member.data.kind === "user") {
      host.sendToSocket(socketId, "room:joined", {
        ...base,
        user: { id: member.player.userId!, username: member.player.name, ...member.data.profile },
      });
    } else {
      host.sendToSocket(socketId, "room:joined:anonymous", {
        ...base,
        nickname: member.player.name,
        created_at: iso(member.joinedAt),
      });
    }
    if (host.state.ready.length > 0) host.sendToSocket(socketId, "room:rematch", this.rematchOf(host));
    // A socket entering mid-round (or after it) draws the whole race at once, then follows the changes.
    const lanes = this.lanes.all();
    if (lanes.length > 0) {
      host.sendToSocket(socketId, "game:progress_update", {
        room_id: this.room.id,
        participants: this.laneEntries(lanes),
      });
    }
  }

  joined(host: RoomGame, member: RoomMember) {
    if (isSpectator(member)) return this.spectatorsChanged(host);
    const room_id = this.room.id;
    const tally = countsOf(host);
    if (member.data.kind === "user") host.broadcast("room:user_joined", { room_id, user: userEntry(member), ...tally });
    else host.broadcast("room:anonymous_joined", { room_id, ...guestEntry(member), ...tally });
    host.broadcast("room:users_update", usersUpdateOf(this.room, host));
    this.system(host, ROOM_MESSAGES.joined(member.player.name));
    host.listingChanged();
  }

  /** A spectator came or went: no announcement nor chat line, only the room's figures (its spectator count). */
  private spectatorsChanged(host: RoomGame) {
    host.broadcast("room:users_update", usersUpdateOf(this.room, host));
    host.listingChanged();
  }

  left(host: RoomGame, member: RoomMember) {
    const room_id = this.room.id;
    if (isSpectator(member)) return this.spectatorsChanged(host);
    const tally = countsOf(host);
    if (member.data.kind === "user") {
      host.broadcast("room:user_left", {
        room_id,
        user_id: member.player.userId,
        username: member.player.name,
        ...tally,
      });
    } else {
      host.broadcast("room:anonymous_left", {
        room_id,
        session_id: member.player.sessionId,
        nickname: member.player.name,
        ...tally,
      });
    }
    host.broadcast("room:users_update", usersUpdateOf(this.room, host));
    this.system(host, ROOM_MESSAGES.left(member.player.name));
    host.listingChanged();
  }

  /** A rename or new figures of a member (the account changed): the room's lists show them. */
  updated(host: RoomGame) {
    host.broadcast("room:users_update", usersUpdateOf(this.room, host));
    host.listingChanged();
  }

  // --- chat ---------------------------------------------------------------------------------------------------

  /**
   * A chat line: trimmed, length and rate checked; an `is_game_answer` line may be the player's attempt. A
   * `game:submission` is the player's attempt as sent (no chat limits), unless it is a chat line: then it is
   * posted like any other.
   */
  command(host: RoomGame, member: RoomMember, command: ChatCommand): InputResult | undefined {
    const { message: raw, isGameAnswer, submission } = command;
    const spectator = isSpectator(member);
    if (submission && spectator) return refusal(ROOM_MESSAGES.spectating, "spectating");
    if (submission && !isChatSubmission(host.state, submission.sentenceId, raw)) {
      return host.play(member.player.id, { typedText: raw, ...submission });
    }
    const message = raw.normalize("NFC").trim();
    if (!message) return undefined;
    const { chatMaxLength, chatBurst, chatWindowMs } = this.env.settings;
    if ([...message].length > chatMaxLength) return refusal(ROOM_MESSAGES.chatTooLong(chatMaxLength), "too_long");
    const now = host.clock.now();
    member.data.chat = member.data.chat.filter((at) => at > now - chatWindowMs);
    if (member.data.chat.length >= chatBurst) return refusal(ROOM_MESSAGES.rateLimited, "rate_limited");
    member.data.chat.push(now);
    // A spectator may chat; its lines are never an answer.
    if (isGameAnswer && !submission && !spectator && isChatAnswer(host.state, member.player.id, message)) {
      return host.play(member.player.id, { typedText: message });
    }
    // A muted member still plays (the answer above); their chat lines are refused with the reason and the end.
    const muted = speechRefusal(this.ctx, member.player.userId, "chat");
    if (muted) return refusal(muted.detail, muted.code ?? "muted");
    // Listed words are masked in what is kept and sent (moderation's profanity filter).
    const line = maskChat(this.ctx, message);
    // Kept on the server so a report of the line keeps it and the lines before it (moderation).
    const { userId, name } = member.player;
    const lineId = chatHistory(this.ctx).record(`room:${this.room.id}`, { userId, name, message: line, at: now });
    host.broadcast("chat:message", {
      line_id: lineId,
      room_id: this.room.id,
      user_id: member.player.userId,
      username: member.player.name,
      nickname: member.player.name,
      session_id: member.player.sessionId,
      is_anonymous: member.data.kind === "guest",
      message: line,
      timestamp: iso(now),
      is_system: false,
      is_private: false,
      message_type: "chat",
    });
    return undefined;
  }

  // --- the loop -----------------------------------------------------------------------------------------------

  /**
   * Before each step: the sentence pool as loaded now (the CLI may have imported sentences), given to the race
   * during the countdown. Asked before every step, so a stale pool starts reloading (in the background, the step
   * does not wait) when the countdown begins and is in place when the sentence is drawn.
   */
  beforeTick(_host: RoomGame, state: RaceState): RaceState {
    const pool = this.env.pool(poolThemeOf(this.room));
    return state.status === "countdown" ? withPool(state, pool) : state;
  }

  /**
   * After a fault the host restarted the race (a fresh waiting game, the players kept): the round that failed is
   * closed as played so far (its acknowledged results stay stored, without medals or rewards), and the players
   * see the new state and the member list. An announcement that fails is only logged, so a room whose view
   * cannot be built for a while is not halted for it: it plays on once the view works again.
   */
  reset(host: RoomGame) {
    this.closeFailedRound(host);
    this.clearLanes();
    try {
      host.broadcast("game:state", gameStateOf(host));
      host.broadcast("room:users_update", usersUpdateOf(this.room, host));
    } catch (error) {
      this.ctx.log.error("room reset could not be announced", { room_id: this.room.id, error: String(error) });
    }
    host.listingChanged();
  }

  private closeFailedRound(host: RoomGame) {
    const open = this.open;
    this.open = null;
    if (!open) return;
    const at = host.clock.now();
    host.write({ name: "abandon_game", run: () => abandonGame(this.ctx, open.ref, at, open.counted) });
  }

  // --- presentation -------------------------------------------------------------------------------------------

  private systemFields(host: RoomGame, messageType: "system" | "problem" | "result") {
    return {
      room_id: this.room.id,
      user_id: null,
      username: "시스템",
      nickname: "시스템",
      is_anonymous: false,
      timestamp: iso(host.clock.now()),
      is_system: true,
      is_private: false,
      message_type: messageType,
    };
  }

  private system(host: RoomGame, message: string) {
    host.broadcast("chat:message", { ...this.systemFields(host, "system"), message });
  }
}

const publicRewards = (r: GameRewardDelta) => ({
  experience: r.experience,
  coins: r.coins,
  points: r.points,
  medal: r.medal,
});

function summary(results: { position: number | null; username: string; wpm: number; accuracy: number }[]) {
  const placed = results.filter((r) => r.position !== null);
  if (placed.length === 0) return ROOM_MESSAGES.noFinishers;
  const top = placed
    .slice(0, 5)
    .map((r) => `${r.position}위 ${r.username} (${r.wpm}타/분, ${r.accuracy}%)`)
    .join(" · ");
  return `게임 결과: ${top}`;
}
