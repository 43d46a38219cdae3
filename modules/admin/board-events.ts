import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import type { AppEvents } from "../kernel/events";
import { adminApi } from "./api";
import { ACTIONS } from "./service";

/**
 * An administrator deleting someone else's post or comment on the board is an admin action: the board module
 * announces it (`board.deleted_by_admin`) and this writes the log row, so the board never imports the admin
 * module. Names are looked up now so the entry stays readable after later renames.
 */
export function recordBoardDeletions(ctx: ModuleContext) {
  const accounts = accountsApi(ctx).service;
  ctx.events.on("board.deleted_by_admin", (event) => {
    // The names are read asynchronously now (accounts' store): a failure is logged, as the bus logs a throwing handler.
    logDeletion(event).catch((error) =>
      ctx.log.error("admin log of a board deletion failed", { error: String(error) }),
    );
  });
  async function logDeletion(event: AppEvents["board.deleted_by_admin"]) {
    const admin = await accounts.findById(event.adminId);
    const author = await accounts.findById(event.authorId);
    adminApi(ctx).writeLog(
      ctx.db,
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
  }
}
