import { PRODUCT_NAME } from "../../lib/title";

/** Shown until the session has resolved (spec part 1 §2): product name and a loading text. */
export function Splash() {
  return (
    <div className="splash" role="status" aria-live="polite">
      <div className="splash-brand">{PRODUCT_NAME}</div>
      <div className="splash-spinner" aria-hidden="true" />
      <p className="splash-text">로딩 중...</p>
    </div>
  );
}
