import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import {
  checkPrivateName,
  isPrivateSize,
  PRIVATE_MSG,
  PRIVATE_NAME_MAX,
  PRIVATE_SIZE,
} from "../../../../modules/rooms/private-rules";
import { api, isApiError } from "../../lib/api";
import { ErrorNotice } from "../../ui/error-notice";
import { TextField } from "../../ui/text-field";
import { initialTexts, TextsEditor, textsBody } from "./texts-editor";
import type { PrivateRoomInfo } from "./types";

export const CREATE_FAILED = "비공개 방을 만들지 못했습니다. 잠시 후 다시 시도해주세요.";

/** The form of a new private room; on success the owner is taken into it through its link. */
export function CreatePrivateRoom({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [size, setSize] = useState(String(PRIVATE_SIZE.default));
  const [texts, setTexts] = useState(initialTexts);
  const [autoStart, setAutoStart] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The server's own rules and words, said before the request.
    const checkedName = checkPrivateName(name);
    if (!checkedName.ok) return setError(checkedName.error);
    const maxUsers = Number(size);
    if (!isPrivateSize(maxUsers)) return setError(PRIVATE_MSG.sizeRange);
    const chosen = textsBody(texts);
    if (!chosen.ok) return setError(chosen.error);
    setBusy(true);
    try {
      const body = { name: checkedName.value, max_users: maxUsers, auto_start: autoStart, ...chosen.body };
      const created = await api.post<PrivateRoomInfo>("/api/rooms/private", body);
      await navigate({ to: "/r/$code", params: { code: created.private.code } });
    } catch (failure) {
      setError(isApiError(failure) ? failure.detail : CREATE_FAILED);
      setBusy(false);
    }
  }

  return (
    <form className="private-form card" onSubmit={submit} aria-labelledby="private-form-title">
      <h2 id="private-form-title" className="private-title">
        비공개 방 만들기
      </h2>
      <ErrorNotice text={error} />
      <div className="private-form-row">
        <TextField label="방 이름" value={name} onValue={setName} maxLength={PRIVATE_NAME_MAX} required />
        <TextField
          label={`인원 (${PRIVATE_SIZE.min}~${PRIVATE_SIZE.max}명)`}
          type="number"
          inputMode="numeric"
          min={PRIVATE_SIZE.min}
          max={PRIVATE_SIZE.max}
          value={size}
          onValue={setSize}
        />
      </div>
      <TextsEditor value={texts} onChange={setTexts} />
      <label className="checkbox">
        <input type="checkbox" checked={autoStart} onChange={(event) => setAutoStart(event.target.checked)} />
        <span>라운드 자동 시작 (끄면 방장이 라운드를 시작합니다)</span>
      </label>
      <div className="private-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          만들고 들어가기
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          취소
        </button>
      </div>
    </form>
  );
}
