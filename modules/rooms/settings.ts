import { PRIVATE_IDLE_MS } from "./private-rules";
import { RACE_MESSAGES, type RaceMode, type RaceSettings, sentenceRace } from "./sentence-race";

/** Tunables of the rooms module; defaults follow product-rules.md. Tests and the benchmark may override them. */
export interface RoomsSettings {
  race: Partial<RaceSettings>;
  /** The game mode every room runs (tests wrap it to make a step fail and check that the room recovers). */
  mode: RaceMode;
  /** A player whose last socket dropped keeps their place this long (reconnect without losing the game). */
  reconnectGraceMs: number;
  /** room:list_update is coalesced: at most one per this interval, carrying the rooms that changed. */
  listUpdateMs: number;
  /**
   * Several processes: a process whose lobby has been empty this long (and no list call came) stops listening to
   * the other processes' room changes, and they stop sending them (README "Several processes").
   */
  lobbyLingerMs: number;
  chatMaxLength: number;
  /** More than `chatBurst` messages within `chatWindowMs` is the rate limit. */
  chatBurst: number;
  chatWindowMs: number;
  /**
   * Guests coming from one address in one room, at most: every connection may make a fresh guest, so one machine
   * could otherwise fill every room. A classroom behind one address must still fit; members are not counted.
   */
  guestsPerAddress: number;
  /** Sentence pools and the room table are re-read after this long (the CLI imports from another process). */
  cacheMs: number;
  /** A private room with nobody in it this long closes (product-rules: 30 minutes). */
  privateIdleMs: number;
  /** How often each process marks its busy private rooms active and closes the idle ones. */
  privateSweepMs: number;
}

export const DEFAULT_ROOMS_SETTINGS: RoomsSettings = {
  race: {},
  mode: sentenceRace,
  reconnectGraceMs: 5_000,
  listUpdateMs: 1_000,
  lobbyLingerMs: 30_000,
  chatMaxLength: 200,
  chatBurst: 5,
  chatWindowMs: 3_000,
  guestsPerAddress: 40,
  cacheMs: 30_000,
  privateIdleMs: PRIVATE_IDLE_MS,
  privateSweepMs: 60_000,
};

export const ROOM_MESSAGES = {
  notFound: "방을 찾을 수 없습니다.",
  full: "방이 가득 찼습니다.",
  tooManyGuests: "같은 주소에서 이 방에 들어온 손님이 너무 많습니다. 로그인 후 이용해주세요.",
  notInRoom: "먼저 방에 입장해주세요.",
  chatTooLong: (max: number) => `메시지는 ${max}자 이하로 입력해주세요.`,
  rateLimited: "메시지를 너무 빠르게 보내고 있습니다. 잠시 후 다시 시도해주세요.",
  joined: (name: string) => `${name}님이 입장했습니다.`,
  left: (name: string) => `${name}님이 퇴장했습니다.`,
  noFinishers: "이번 게임에서는 문장을 완성한 사람이 없습니다.",
  spectating: RACE_MESSAGES.spectating,
} as const;
