import { type ComponentType, lazy } from "react";
import { afterFirstLoad } from "../../lib/after-first-load";

/**
 * A notice shown only when something is wrong (no network, a lost session): its code is not part of the first
 * load. It is fetched once the first load is over, so it is at hand when the network drops later (and kept by the
 * service worker for a page opened offline); a failed download shows nothing rather than taking the page down.
 */
export function lazyNotice(load: () => Promise<ComponentType>) {
  afterFirstLoad(() => void load().catch(() => undefined));
  const nothing: ComponentType = () => null;
  return lazy(() =>
    load().then(
      (component) => ({ default: component }),
      () => ({ default: nothing }),
    ),
  );
}
