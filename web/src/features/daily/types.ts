/** 오늘의 문장's shapes: the socket's from the server's wire contract (type-only), the board's from its route. */
import type { BestEntry, BoardEntry, DailyResultView, DailyStateView } from "../../../../modules/daily/wire";

export type { BestEntry, BoardEntry, DailyResultView, DailyStateView };

/** `GET /api/daily`. */
export interface DailyOverview {
  day: string;
  board: BoardEntry[];
  my_best: BestEntry | null;
  yesterday: { day: string; winners: (BoardEntry & { medal: "gold" | "silver" | "bronze" })[] };
}
