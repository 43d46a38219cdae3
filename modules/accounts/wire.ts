import type { PublicUser } from "./view";

/** The rewards of one game as a member's `user:stats_update` shows them (rooms and the guild game). */
export interface PublicRewards {
  experience: number;
  coins: number;
  points: number;
  medal: "gold" | "silver" | "bronze" | null;
}

/**
 * `user:stats_update` to every socket of a member: the account's name and flag after a rename or a grant (this
 * module), or its figures after a game with that game's rewards (rooms, the guild game). Any subset of the user;
 * the web takes the fields it knows.
 */
export type StatsUpdate = Partial<
  PublicUser & {
    user_id: number;
    leveled_up: boolean;
    /** The room or guild whose game paid the rewards. */
    room_id: number;
    guild_id: number;
    rewards: PublicRewards | null;
  }
>;

export interface AccountsServerEvents {
  "user:stats_update": (payload: StatsUpdate) => void;
}

declare module "../kernel/socket" {
  interface ServerEvents extends AccountsServerEvents {}
}
