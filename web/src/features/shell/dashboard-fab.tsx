import { Link, useRouterState } from "@tanstack/react-router";
import { type RefObject, useEffect, useRef, useState } from "react";

/**
 * The floating "대시보드" link, kept clear of content: while something a reader needs (a button, a field, a table,
 * text) lies under it, it steps aside (faded out, not clickable) and comes back where the page is empty beneath it,
 * e.g. the footer's space at the end of every page. A keyboard user reaching it by Tab always sees it.
 */
export function DashboardFab() {
  const ref = useRef<HTMLAnchorElement>(null);
  const covering = useCoversContent(ref);
  return (
    <Link ref={ref} to="/admin/dashboard" className={covering ? "fab fab-tucked" : "fab"} aria-label="관리자 대시보드">
      <span className="fab-icon" aria-hidden="true" />
      대시보드
    </Link>
  );
}

/** What counts as content under the link: controls, media, tables, and any element with text of its own. */
const CONTENT =
  "a, button, input, textarea, select, label, summary, img, svg, canvas, video, table, [role='button'], [tabindex], " +
  "p, h1, h2, h3, h4, h5, h6, li, dt, dd, pre, blockquote, figure";

const hasOwnText = (element: Element) =>
  [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());

/** True when, at the link's corners or centre, the topmost thing beneath it is content. */
function coversContent(fab: HTMLElement): boolean {
  const r = fab.getBoundingClientRect();
  if (r.width === 0) return false;
  const inset = 3;
  const points = [
    [r.left + inset, r.top + inset],
    [r.right - inset, r.top + inset],
    [r.left + inset, r.bottom - inset],
    [r.right - inset, r.bottom - inset],
    [r.left + r.width / 2, r.top + r.height / 2],
  ];
  return points.some(([x, y]) => {
    const beneath = document.elementsFromPoint(x, y).find((element) => !fab.contains(element));
    return beneath !== undefined && (beneath.closest(CONTENT) !== null || hasOwnText(beneath));
  });
}

/**
 * Watches whether the floating element covers content: after scrolling, resizing, page changes and DOM changes,
 * at most once per frame.
 */
function useCoversContent(ref: RefObject<HTMLElement | null>): boolean {
  const [covering, setCovering] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page is new content to check against
  useEffect(() => {
    let frame = 0;
    const check = () => {
      frame = 0;
      if (ref.current) setCovering(coversContent(ref.current));
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(check);
    };
    schedule();
    const observer = new MutationObserver(schedule);
    const main = document.getElementById("main") ?? document.body;
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
    };
  }, [ref, pathname]);
  return covering;
}
