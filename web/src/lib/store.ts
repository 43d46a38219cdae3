import { createStore } from "jotai";

/**
 * The app's one jotai store, shared by React (Provider) and by code outside React (session actions, socket
 * manager) so both read and write the same atoms.
 */
export const appStore = createStore();
