import { useEffect, useState } from "react";

/** The current time, refreshed every `intervalMs` while `active` (timers re-render only their own component). */
export function useNow(intervalMs: number, active = true): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}

/** Whole seconds left until `endsAt` (ISO), refreshed 4 times a second; null without an end. */
export function useSecondsLeft(endsAt: string | null | undefined): number | null {
  const now = useNow(250, Boolean(endsAt));
  return endsAt ? Math.max(0, Math.ceil((Date.parse(endsAt) - now) / 1000)) : null;
}
