/**
 * Loaded with the shell (main.tsx), so it stays tiny: when this browser holds practice results a member finished
 * offline (unsent-results.ts), they are sent at start and whenever the connection returns, whatever page is open.
 * The queue's code loads only then.
 */
export const UNSENT_KEY = "practice_unsent";

export function syncUnsentPractice() {
  const send = () => {
    if (localStorage.getItem(UNSENT_KEY))
      void import("./unsent-results").then(({ unsentResults }) => unsentResults.send());
  };
  send();
  window.addEventListener("online", send);
}
