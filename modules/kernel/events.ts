/**
 * A typed in-process event bus. Modules announce facts (`rooms.game_finished`) and other modules react without
 * importing each other's internals. Each module declares its events by augmenting `AppEvents`:
 *
 *   declare module "../kernel/events" { interface AppEvents { "rooms.game_finished": GameFinished } }
 *
 * Handlers run synchronously in registration order; a throwing handler is logged and does not stop the others.
 */
// biome-ignore lint/suspicious/noEmptyInterface: augmented by modules
export interface AppEvents {}

type Handler<T> = (payload: T) => void;

export class EventBus {
  private handlers = new Map<string, Set<Handler<unknown>>>();

  constructor(private readonly onHandlerError: (event: string, error: unknown) => void = () => {}) {}

  on<K extends keyof AppEvents & string>(event: K, handler: Handler<AppEvents[K]>): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    set.add(handler as Handler<unknown>);
    return () => set.delete(handler as Handler<unknown>);
  }

  emit<K extends keyof AppEvents & string>(event: K, payload: AppEvents[K]): void {
    for (const handler of this.handlers.get(event) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        this.onHandlerError(event, error);
      }
    }
  }
}
