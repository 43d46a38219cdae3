import { useAtomValue } from "jotai";
import { lazy, Suspense, useState } from "react";
import { currentUserAtom } from "../session/atoms";
import type { ReportTarget } from "./moderation-api";

/** The dialog's code loads when a member is about to open it (pointer over or focus on a button), not with the page. */
const loadForm = () => import("./report-form");
const ReportDialog = lazy(() => loadForm().then((m) => ({ default: m.ReportDialog })));

/** The start of a long text, to name it in the dialog. */
export const excerpt = (text: string, max = 40) => {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : chars.join("");
};

/**
 * A small "신고" button that opens the dialog: shown to members only (guests cannot report), never on one's own
 * line, post or name (`authorId`).
 */
export function ReportButton({
  target,
  subject,
  authorId,
  className = "",
}: {
  target: ReportTarget;
  subject: string;
  authorId?: number | null;
  className?: string;
}) {
  const me = useAtomValue(currentUserAtom);
  const [open, setOpen] = useState(false);
  if (!me || (authorId !== undefined && authorId === me.id)) return null;
  return (
    <>
      <button
        type="button"
        className={`report-button ${className}`.trim()}
        aria-label={`${subject} 신고`}
        title="신고"
        onPointerEnter={() => void loadForm()}
        onFocus={() => void loadForm()}
        onClick={() => setOpen(true)}
      >
        신고
      </button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog target={target} subject={subject} authorId={authorId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
