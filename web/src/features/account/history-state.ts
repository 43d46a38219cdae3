import { useRouterState } from "@tanstack/react-router";
import type { AppHistoryState } from "../../lib/navigation";

/** The router history state handed over by the previous page (see AppHistoryState). */
export function useHistoryState(): AppHistoryState {
  return useRouterState({ select: (s) => s.location.state }) as AppHistoryState;
}
