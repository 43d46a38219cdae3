import { t } from "elysia";
import { RESULTS_LIMIT } from "./rules";

/** Spec part 2 "Game result record", plus the game's `mode` and the result's `medal`. */
export const GameResultRecordSchema = t.Object({
  id: t.Integer(),
  room_name: t.String(),
  wpm: t.Integer(),
  accuracy: t.Number(),
  completion_time: t.Number(),
  position: t.Nullable(t.Integer()),
  created_at: t.String({ format: "date-time" }),
  mode: t.String(),
  medal: t.Nullable(t.Union([t.Literal("gold"), t.Literal("silver"), t.Literal("bronze")])),
  /** The result's replay (`GET /api/replays/{key}`), null when it has none. */
  replay_key: t.Nullable(t.String()),
});

export const UserResultsParams = t.Object({ userId: t.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const UserResultsQuery = t.Object({
  limit: t.Optional(
    t.Integer({ minimum: RESULTS_LIMIT.min, maximum: RESULTS_LIMIT.max, default: RESULTS_LIMIT.default }),
  ),
});

/**
 * A member's best figures over their counted results of every typing mode (`GET /api/games/best/user/{userId}`):
 * the profile's "최고 속도" and "최고 정확도", read from the server rather than from the 200 records it lists.
 */
export const BestFiguresSchema = t.Object({
  user_id: t.Integer(),
  best_wpm: t.Integer(),
  best_accuracy: t.Number(),
});

export const ReplayParams = t.Object({ key: t.String() });

/** `GET /api/replays/{key}` (product-rules "Live race and replays"): a result's steps and what it was. */
export const ReplaySchema = t.Object({
  key: t.String(),
  mode: t.String(),
  room_name: t.String(),
  sentence: t.String(),
  player: t.Object({ name: t.String(), level: t.Optional(t.Integer()) }),
  result: t.Object({
    wpm: t.Integer(),
    accuracy: t.Number(),
    position: t.Nullable(t.Integer()),
    completion_time: t.Number(),
    created_at: t.String({ format: "date-time" }),
  }),
  steps: t.Array(t.Object({ t: t.Integer(), text: t.String() })),
});
