import { atom } from "jotai";

/** Whether the browser has a network connection (`navigator.onLine`, kept by its online and offline events). */
const onlineState = atom(globalThis.navigator?.onLine ?? true);
onlineState.onMount = (set) => {
  const update = () => set(navigator.onLine);
  update();
  window.addEventListener("online", update);
  window.addEventListener("offline", update);
  return () => {
    window.removeEventListener("online", update);
    window.removeEventListener("offline", update);
  };
};

export const onlineAtom = atom((get) => get(onlineState));
