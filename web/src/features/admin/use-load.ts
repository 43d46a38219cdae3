import { useCallback, useEffect, useState } from "react";
import { isApiError } from "../../lib/api";

export interface Loaded<T> {
  data: T | null;
  error: { status: number; message: string } | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads once per `key` and again on `reload()`. A newer load aborts the older one, so a slow answer never
 * overwrites a newer page. `fallback` is the page's Korean failure text (spec part 2 §8); with `serverText` the
 * server's own detail is preferred (the dashboard shows "the error message or 데이터를 불러오는데 실패했습니다.").
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: string,
  fallback: string,
  options: { serverText?: boolean } = {},
): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<Loaded<T>["error"]>(null);
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what `load` fetches; attempt re-runs it
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    load(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        const status = isApiError(failure) ? failure.status : 0;
        const detail = isApiError(failure) && options.serverText ? failure.detail : "";
        setError({ status, message: detail || fallback });
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  return { data, error, loading, reload: useCallback(() => setAttempt((n) => n + 1), []) };
}
