/** The title + content form of the write and edit pages, with the client checks of spec part 2 §5. */
import { Link, type LinkProps } from "@tanstack/react-router";
import { type FormEvent, type ReactNode, useState } from "react";
import { CONTENT_MAX, charLength, checkContent, checkTitle, TITLE_MAX } from "../../../../modules/board/rules";
import type { PostInput } from "./board-api";

interface PostFormProps {
  heading: string;
  initial?: PostInput;
  submitLabel: string;
  busyLabel: string;
  /** Resolves to an error text to show, or null when the caller moved on (e.g. to the new post). */
  onSubmit: (input: PostInput) => Promise<string | null>;
  cancel: LinkProps;
  /** Extra content under a failure (e.g. a login link). */
  errorExtra?: ReactNode;
}

export function PostForm({ heading, initial, submitLabel, busyLabel, onSubmit, cancel, errorExtra }: PostFormProps) {
  const [title, setTitle] = useState(initial?.title ?? "");
  const [content, setContent] = useState(initial?.content ?? "");
  const [errors, setErrors] = useState<{ title?: string; content?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const titleCheck = checkTitle(title);
    const contentCheck = checkContent(content);
    setErrors({
      title: titleCheck.ok ? undefined : titleCheck.error,
      content: contentCheck.ok ? undefined : contentCheck.error,
    });
    if (!titleCheck.ok || !contentCheck.ok) return;
    setBusy(true);
    setFailure(null);
    const error = await onSubmit({ title: titleCheck.value, content: contentCheck.value });
    if (error) {
      setFailure(error);
      setBusy(false);
    }
  }

  const titleLength = charLength(title.trim());
  return (
    <form className="card board-form" onSubmit={submit} noValidate>
      <h1 className="page-title board-form-title">{heading}</h1>
      {failure && (
        <div className="notice notice-error" role="alert">
          {failure}
          {errorExtra}
        </div>
      )}
      <div className="field">
        <label className="field-label" htmlFor="post-title">
          제목
        </label>
        <input
          id="post-title"
          className="input"
          name="title"
          value={title}
          placeholder="제목을 입력하세요"
          autoComplete="off"
          aria-invalid={errors.title ? true : undefined}
          aria-describedby="post-title-help"
          onChange={(e) => setTitle(e.target.value)}
        />
        <div className="board-field-foot" id="post-title-help">
          {errors.title ? <span className="board-field-error">{errors.title}</span> : <span />}
          <span className={titleLength > TITLE_MAX ? "board-counter over" : "board-counter"}>
            {titleLength}/{TITLE_MAX}
          </span>
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor="post-content">
          내용
        </label>
        <textarea
          id="post-content"
          className="input board-textarea board-content-input"
          name="content"
          value={content}
          placeholder="내용을 입력하세요"
          rows={14}
          aria-invalid={errors.content ? true : undefined}
          aria-describedby="post-content-help"
          onChange={(e) => setContent(e.target.value)}
        />
        <div className="board-field-foot" id="post-content-help">
          {errors.content ? <span className="board-field-error">{errors.content}</span> : <span />}
          <span className={charLength(content.trim()) > CONTENT_MAX ? "board-counter over" : "board-counter"}>
            {charLength(content.trim()).toLocaleString("ko-KR")}/{CONTENT_MAX.toLocaleString("ko-KR")}
          </span>
        </div>
      </div>
      <div className="board-form-actions">
        <Link {...cancel} className="btn btn-ghost">
          취소
        </Link>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
