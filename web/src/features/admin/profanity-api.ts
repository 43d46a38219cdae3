/** The profanity list's calls (modules/moderation README "Profanity filter"), through the app's one API client. */
import type { WordEntry } from "../../../../modules/moderation/word-list";
import { api } from "../../lib/api";

export type { WordEntry } from "../../../../modules/moderation/word-list";

export interface WordList {
  words: WordEntry[];
  removed: WordEntry[];
  total: number;
}

export interface WordAnswer {
  detail: string;
  word: string;
}

export const profanityApi = {
  list: (signal?: AbortSignal) => api.get<WordList>("/api/moderation/profanity", { signal }),
  add: (word: string) => api.post<WordAnswer>("/api/moderation/profanity", { word }),
  remove: (word: string) => api.delete<WordAnswer>(`/api/moderation/profanity/${encodeURIComponent(word)}`),
};
