/** The replay call, through the app's one HTTP client. */
import { api } from "../../lib/api";
import type { Replay } from "./types";

export const replaysApi = {
  get: (key: string, signal?: AbortSignal) => api.get<Replay>(`/api/replays/${encodeURIComponent(key)}`, { signal }),
};
