/** The board call, through the app's one HTTP client (a member's token adds their own best). */
import { api } from "../../lib/api";
import type { DailyOverview } from "./types";

export const dailyApi = {
  overview: (signal?: AbortSignal) => api.get<DailyOverview>("/api/daily", { signal }),
};
