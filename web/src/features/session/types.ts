import type { PublicUser } from "../../../../modules/accounts";

/** The user object of GET /api/users/me and of the login answer (spec part 1 §3 "User"). */
export type User = PublicUser;

export interface LoginResponse {
  access_token: string;
  token_type: "bearer";
  user: User;
  password_reset_required: boolean;
  refresh_token?: string;
}

export interface LoginInput {
  email: string;
  password: string;
  remember_me: boolean;
}

/** The figures a `user:stats_update` event may change (the event carries the user or a subset of it). */
export const LIVE_STAT_FIELDS = [
  "level",
  "experience",
  "next_level_experience",
  "points",
  "coins",
  "total_earned_points",
  "total_spent_points",
  "gold_medals",
  "silver_medals",
  "bronze_medals",
  "win_streak",
  "max_win_streak",
  "games_played",
  "avg_wpm",
  "avg_accuracy",
] as const satisfies readonly (keyof User)[];
