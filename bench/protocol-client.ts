/**
 * A minimal socket.io v4 client (engine.io protocol 4, websocket transport only, namespace "/", acks of the
 * client's own events, no binary) over Bun's native WebSocket. socket.io-client keeps a Manager, an engine Socket, a transport, timers
 * and buffers per connection; this keeps one WebSocket and a few fields, so one generator process can hold
 * 10,000 players.
 *
 * Frames: server "0{open json}" → client "40{auth json}" → server "40{sid}"; server ping "2" → client "3";
 * events both ways "42[\"name\",payload]"; an event with an ack "42<id>[…]" answered "43<id>[answer]"; "41" namespace
 * disconnect; "44{error}" connect error.
 */

/** `frame` is the raw "42[…]" text: handlers parse only what they need (see `payloadOf`). */
export type EventHandler = (name: string, frame: string, receivedAt: number) => void;

/** The payload of an event frame. */
export const payloadOf = (frame: string): unknown => (JSON.parse(frame.slice(2)) as [string, unknown])[1];

export interface ProtocolClientOptions {
  /** http://127.0.0.1:PORT (the /socket.io/ path and query are added). */
  url: string;
  /** Handshake auth, e.g. { client_id } for a guest or { token } for a member. */
  auth?: Record<string, string>;
  onEvent: EventHandler;
  onClose?: (code: number) => void;
  /** Milliseconds to wait for the namespace connect. */
  timeoutMs?: number;
}

const now = () => performance.now();

export class ProtocolClient {
  private ws: WebSocket | undefined;
  connected = false;
  sid = "";
  /** Event frames received ("42…"), and their bytes (UTF-16 length as a proxy, same for both servers). */
  received = 0;
  receivedChars = 0;
  private nextAckId = 0;
  private readonly acks = new Map<number, (answer: unknown, receivedAt: number) => void>();

  constructor(private readonly options: ProtocolClientOptions) {}

  connect(): Promise<void> {
    const { url, auth, timeoutMs = 20_000 } = this.options;
    const wsUrl = `${url.replace(/^http/, "ws")}/socket.io/?EIO=4&transport=websocket`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      this.ws = ws;
      const timer = setTimeout(() => {
        reject(new Error("connect timeout"));
        ws.close();
      }, timeoutMs);
      const settle = (error?: Error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      ws.onmessage = (event) => this.onFrame(event.data as string, settle, auth);
      ws.onerror = () => settle(new Error("websocket error"));
      ws.onclose = (event) => {
        const wasConnected = this.connected;
        this.connected = false;
        if (!wasConnected) settle(new Error(`closed before connect (${event.code})`));
        this.options.onClose?.(event.code);
      };
    });
  }

  private onFrame(data: string, settle: (error?: Error) => void, auth?: Record<string, string>) {
    const type = data.charCodeAt(0);
    if (type === 52 /* "4" message */) {
      const sub = data.charCodeAt(1);
      if (sub === 50 /* "2" event */) {
        this.received++;
        this.receivedChars += data.length;
        const at = now();
        // `42["name",…`: event names never contain quotes, so the name is read without parsing the payload
        // (room:list carries every room and is large; a generator parsing everything would stall on GC).
        this.options.onEvent(data.slice(4, data.indexOf('"', 4)), data, at);
      } else if (sub === 51 /* "3" ack */) {
        const open = data.indexOf("[");
        const id = Number(data.slice(2, open));
        const callback = this.acks.get(id);
        this.acks.delete(id);
        callback?.((JSON.parse(data.slice(open)) as unknown[])[0], now());
      } else if (sub === 48 /* "0" connect */) {
        this.sid = data.length > 2 ? (JSON.parse(data.slice(2)).sid ?? "") : "";
        this.connected = true;
        settle();
      } else if (sub === 52 /* "4" connect error */) {
        settle(new Error(`connect refused: ${data.slice(2)}`));
      } else if (sub === 49 /* "1" disconnect */) {
        this.connected = false;
      }
    } else if (type === 50 /* "2" ping */) {
      this.ws?.send("3");
    } else if (type === 48 /* "0" open */) {
      this.ws?.send(auth ? `40${JSON.stringify(auth)}` : "40");
    }
  }

  emit(name: string, payload: unknown): boolean {
    if (!this.connected || !this.ws) return false;
    this.ws.send(`42${JSON.stringify([name, payload])}`);
    return true;
  }

  /** An event with an acknowledgement: `callback` gets the server's answer (never called if none comes). */
  emitWithAck(name: string, payload: unknown, callback: (answer: unknown, receivedAt: number) => void): boolean {
    if (!this.connected || !this.ws) return false;
    const id = this.nextAckId++;
    this.acks.set(id, callback);
    this.ws.send(`42${id}${JSON.stringify([name, payload])}`);
    return true;
  }

  close() {
    this.connected = false;
    this.ws?.close();
  }
}
