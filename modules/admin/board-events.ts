import { accountsApi } from "../accounts";
import { onAdminDeletion } from "../board";
import type { ModuleContext } from "../kernel/define-module";
import { adminApi } from "./api";
import { ACTIONS } from "./service";

/**
 * An administrator deleting someone else's post or comment on the board is an admin action: the board module
 * announces it (`board.deleted_by_admin`) and this writes the log row, so the board never imports the admin
 * module. The row is written inside the deletion's transaction (board's `onAdminDeletion`): the deletion and its
 * log entry commit together, and the administrator's answer comes after both. Names are looked up now so the entry
 * stays readable after later renames.
 */
export function recordBoardDeletions(ctx: ModuleContext) {
  const accounts = accountsApi(ctx).service;
  onAdminDeletion(ctx, async (event) => {
    const admin = await accounts.findById(event.adminId);
    const author = await accounts.findById(event.authorId);
    await adminApi(ctx).writeLog(
      { id: admin?.id ?? null, username: admin?.username ?? `#${event.adminId}`, source: "web" },
      event.kind === "post" ? ACTIONS.deletePost : ACTIONS.deleteComment,
      author ? { id: author.id, username: author.username } : null,
      {
        post_id: event.postId,
        comment_id: event.kind === "comment" ? event.id : undefined,
        title: event.title,
        excerpt: event.excerpt,
      },
    );
  });
}
