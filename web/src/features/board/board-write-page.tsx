/** /board/write — a new post (spec part 2 §2 "Board write", §8 post create and write-page login texts). */
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api";
import { appStore } from "../../lib/store";
import { useDocumentTitle } from "../../lib/title";
import { tokens } from "../../lib/tokens";
import { isAuthenticatedAtom, session, sessionStatusAtom } from "../session/atoms";
import { boardApi, type PostInput } from "./board-api";
import { BOARD_TEXT } from "./messages";
import { PostForm } from "./post-form";

/**
 * Whether the form may be shown. Signed in: at once. Not signed in but a token is stored (the server was
 * unreachable at start, or another tab logged in): reload the user first; if that does not sign the viewer in,
 * go to /login with the expired-session text. No token at all: the route already sent the viewer to /login.
 * Decided once per visit, so a session lost while writing leaves the form (and its error) on screen.
 */
function useWriteAccess(): boolean {
  const navigate = useNavigate();
  const [allowed, setAllowed] = useState(() => appStore.get(isAuthenticatedAtom));
  const checked = useRef(false);

  useEffect(() => {
    // StrictMode runs effects twice in development; one reload per visit is enough.
    if (checked.current || allowed) return;
    checked.current = true;
    // A user who must reset the password is sent to /password-reset by the shell.
    if (appStore.get(sessionStatusAtom) === "password_reset_required") return;
    const toLogin = (loginMessage: string) =>
      void navigate({ to: "/login", replace: true, state: { loginMessage } as never });
    if (!tokens.access()) {
      toLogin(BOARD_TEXT.loginToWrite);
      return;
    }
    void session.reload().then(() => {
      if (appStore.get(isAuthenticatedAtom)) setAllowed(true);
      else toLogin(BOARD_TEXT.sessionExpired);
    });
  }, [allowed, navigate]);

  return allowed;
}

export function BoardWritePage() {
  useDocumentTitle("글쓰기");
  const navigate = useNavigate();
  const allowed = useWriteAccess();
  const [unauthorized, setUnauthorized] = useState(false);

  if (!allowed) {
    return (
      <section className="board-page board-narrow">
        <p className="card board-state muted" role="status">
          로그인 상태를 확인하고 있습니다...
        </p>
      </section>
    );
  }

  async function create(input: PostInput): Promise<string | null> {
    try {
      const post = await boardApi.create(input, { redirectOnAuthFailure: false });
      await navigate({ to: "/board/$postId", params: { postId: String(post.id) } });
      return null;
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        // The stored token is useless now: drop it (and the signed-in state) so the next login starts clean.
        setUnauthorized(true);
        await session.logout({ to: null });
        return BOARD_TEXT.createUnauthorized;
      }
      setUnauthorized(false);
      return BOARD_TEXT.createFailed;
    }
  }

  return (
    <section className="board-page board-narrow">
      <Link to="/board" search={{}} className="board-back">
        ← 목록으로
      </Link>
      <PostForm
        heading="글쓰기"
        submitLabel="등록"
        busyLabel="등록 중..."
        onSubmit={create}
        cancel={{ to: "/board", search: {} }}
        errorExtra={
          unauthorized && (
            <>
              {" "}
              <Link to="/login">로그인하기</Link>
            </>
          )
        }
      />
    </section>
  );
}
