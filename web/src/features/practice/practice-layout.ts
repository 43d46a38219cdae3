/**
 * The layout the player practises on (modules/practice README "Layouts"): a member's is the server's (read when
 * the page opens, written when they choose), a guest's is this browser's. The browser keeps a member's copy too, so
 * the page opened offline starts on it.
 */
import { useCallback, useEffect, useState } from "react";
import { isLayout, type Layout } from "../../../../modules/practice/layouts";
import { practiceApi } from "./practice-api";

const KEPT_LAYOUT = "practice_layout";

export function keptLayout(): Layout {
  const kept = localStorage.getItem(KEPT_LAYOUT);
  return isLayout(kept) ? kept : "dubeolsik";
}

const keepLayout = (layout: Layout) => localStorage.setItem(KEPT_LAYOUT, layout);

export function usePracticeLayout(userId: number | null): [Layout, (layout: Layout) => void] {
  const [layout, setLayout] = useState(keptLayout);
  useEffect(() => {
    if (userId === null) {
      setLayout(keptLayout());
      return;
    }
    let live = true;
    practiceApi.layout().then(
      (answer) => {
        if (!live) return;
        keepLayout(answer.layout);
        setLayout(answer.layout);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [userId]);
  const choose = useCallback(
    (next: Layout) => {
      keepLayout(next);
      setLayout(next);
      if (userId !== null) practiceApi.setLayout(next).catch(() => {});
    },
    [userId],
  );
  return [layout, choose];
}
