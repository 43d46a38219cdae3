import type { UserRow } from "../../db/core/schema";
import { average2 } from "../kernel/typing";

/** Experience needed to go from level n to n+1 (product-rules.md "Typing rooms"). */
export const experienceForNextLevel = (level: number) => 100 * level;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * The user object of the API: every field of spec part 1 §3 "User", part 2 "User (administrator view)" and the
 * profile's currencies. Never includes the password hash.
 */
export function presentUser(row: UserRow) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    level: row.level,
    experience: row.experience,
    next_level_experience: experienceForNextLevel(row.level),
    points: row.points,
    coins: row.coins,
    total_earned_points: row.totalEarnedPoints,
    total_spent_points: row.totalSpentPoints,
    gold_medals: row.goldMedals,
    silver_medals: row.silverMedals,
    bronze_medals: row.bronzeMedals,
    win_streak: row.winStreak,
    max_win_streak: row.maxWinStreak,
    games_played: row.gamesPlayed,
    // The kernel's one average (the rankings and the profile show the same figure, to the hundredth).
    avg_wpm: average2(row.wpmSum, row.gamesPlayed),
    avg_accuracy: average2(row.accuracySum, row.gamesPlayed),
    is_admin: row.isAdmin,
    is_active: row.isActive,
    password_reset_required: row.passwordResetRequired,
    login_count: row.loginCount,
    last_login_at: iso(row.lastLoginAt),
    created_at: row.createdAt.toISOString(),
  };
}
export type PublicUser = ReturnType<typeof presentUser>;
