import type { Server } from "bun";
import { type DocumentDecoration, Elysia } from "elysia";
import { type CounterFactory, memoryCounters } from "./counters";
import { redisCounters } from "./counters-redis";
import type { ModuleContext } from "./define-module";
import { AppError, tooManyRequests } from "./errors";
import { ERROR_DESCRIPTIONS, errorSchema } from "./http";
import type { Logger } from "./logger";
import { addressLimitKey, clientIp, type TrustedProxies } from "./request-info";

/**
 * HTTP writes: every POST/PUT/PATCH/DELETE route of the API declares a `writeLimit` next to its handler (as socket
 * events declare their cost). Its body is checked for size and depth before anything parses it, and a well-formed
 * request is counted against the budget per account and per address before the handler runs. Rules and figures: modules/kernel/README.md "HTTP writes".
 */

/** What every write answers when over its limit (the socket dispatcher's text, the same words everywhere). */
export const TOO_MANY_WRITES = "요청이 너무 많습니다. 잠시 후 다시 시도해주세요.";
export const BODY_TOO_LARGE = "요청 본문이 너무 큽니다.";
export const BODY_TOO_DEEP = "요청 본문의 중첩이 너무 깊습니다. 32단계까지 보낼 수 있습니다.";

/** Arrays and objects nested deeper than this are refused (400) before anything parses them. */
export const MAX_BODY_DEPTH = 32;
/** A route's body limit unless it declares another: every small form of the API fits many times over. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** The largest body any route declares (guild problem lists): larger ones are refused from the header alone. */
export const MAX_BODY_LIMIT = 512 * 1024;

const MINUTE = 60 * 1000;

/** A route's write budget: how many requests within the window, per account and per address. */
export interface WriteLimit {
  /** The counter's name (`<module>.<what>`): routes with one name share their counts and must declare one budget. */
  name: string;
  /** Requests per signed-in account within the window (a request without a valid access token has none). */
  account: number;
  /** Requests per client address (IPv6: per /64) within the window, signed in or not. */
  address: number;
  /** The sliding window; 10 minutes unless said. */
  windowMs?: number;
  /** The largest body in bytes (`DEFAULT_BODY_LIMIT` unless said, at most `MAX_BODY_LIMIT`). */
  body?: number;
}

export const DEFAULT_WRITE_WINDOW_MS = 10 * MINUTE;

/** The account of a request, from its `Authorization` header: a stable id, or null (no token, or not a valid one). */
export type CallerIdentity = (authorization: string | null) => Promise<string | null>;

/**
 * Counts writes per route budget, per account and per address, in the server's counters (Redis with REDIS_URL, so
 * every process sees one count; process memory otherwise).
 */
export class WriteLimiter {
  private identify: CallerIdentity | null = null;
  /** The listening Bun server, for the client's address (Elysia gives a parse hook no `server`). */
  private server: Server<unknown> | null = null;
  private readonly budgets = new Map<string, { limit: WriteLimit; account: Counter; address: Counter }>();

  constructor(
    private readonly counters: CounterFactory,
    private readonly trustProxy: TrustedProxies,
    private readonly log: Logger | null = null,
  ) {}

  /** Set by the module that owns accounts (accounts' onBoot): without it, writes count per address only. */
  identifyCallersWith(identify: CallerIdentity) {
    this.identify = identify;
  }

  /** Set by apps/server once it listens. */
  listensOn(server: Server<unknown>) {
    this.server = server;
  }

  /** The counters of one budget; a second, different declaration under the same name is a programming error. */
  declare(limit: WriteLimit) {
    const known = this.budgets.get(limit.name);
    if (known) {
      if (!sameBudget(known.limit, limit))
        throw new Error(`write limit ${limit.name} declared twice with other figures`);
      return known;
    }
    const windowMs = limit.windowMs ?? DEFAULT_WRITE_WINDOW_MS;
    const budget = {
      limit,
      account: this.counters(`write:${limit.name}:account`, { windowMs, limit: limit.account }),
      address: this.counters(`write:${limit.name}:address`, { windowMs, limit: limit.address }),
    };
    this.budgets.set(limit.name, budget);
    return budget;
  }

  /**
   * Counts one write of `request` against `limit`: its account's count first (the usual binding one), then its
   * address's; the account's is given back when the address refuses. Refused: 429 with `Retry-After`, nothing
   * counted.
   */
  async admit(limit: WriteLimit, request: Request) {
    try {
      await this.count(limit, request);
    } catch (error) {
      if (error instanceof AppError) throw error;
      // The counts protect the write, they are not the write: when their store fails (Redis unreachable), the
      // request goes through, logged, rather than every write of the site answering 500 until it is back.
      this.log?.error("write limit not counted", { limit: limit.name, error: String(error) });
    }
  }

  private async count(limit: WriteLimit, request: Request) {
    const budget = this.declare(limit);
    const address = addressLimitKey(clientIp(request, this.server, this.trustProxy));
    const account = this.identify ? await this.identify(request.headers.get("authorization")) : null;
    let counted: { at: number } | null = null;
    if (account !== null) {
      const taken = await budget.account.take(account);
      if (taken.retryAfter > 0) throw refused(taken.retryAfter);
      counted = taken;
    }
    const taken = await budget.address.take(address);
    if (taken.retryAfter > 0) {
      if (account !== null && counted) await budget.account.forgive(account, counted.at);
      throw refused(taken.retryAfter);
    }
  }
}

type Counter = ReturnType<CounterFactory>;

const sameBudget = (a: WriteLimit, b: WriteLimit) =>
  a.account === b.account &&
  a.address === b.address &&
  (a.windowMs ?? DEFAULT_WRITE_WINDOW_MS) === (b.windowMs ?? DEFAULT_WRITE_WINDOW_MS) &&
  (a.body ?? DEFAULT_BODY_LIMIT) === (b.body ?? DEFAULT_BODY_LIMIT);

const refused = (retryAfter: number) => tooManyRequests(TOO_MANY_WRITES, `retry_after:${retryAfter}`);

const limiters = new WeakMap<object, WriteLimiter>();

/** The server's write limiter (one per application context: tests run several servers in one process). */
export function writeLimiter(ctx: ModuleContext): WriteLimiter {
  let limiter = limiters.get(ctx);
  if (!limiter) {
    const now = () => ctx.clock.now();
    // Keys per budget: an address or an account each; the least recently used goes first (counters.ts).
    const counters = ctx.cluster ? redisCounters(ctx.cluster, now) : memoryCounters(now, WRITE_MAX_KEYS);
    limiter = new WriteLimiter(counters, ctx.config.trustProxy, ctx.log);
    limiters.set(ctx, limiter);
  }
  return limiter;
}

/** Keys kept per budget in process memory (each at most `limit` times): bounded whatever the addresses used. */
export const WRITE_MAX_KEYS = 20_000;

// ---- bodies

/**
 * Whether JSON text nests arrays and objects deeper than `max`, strings skipped: one pass over the characters, no
 * allocation, stopping at the first level too deep. On invalid JSON it may answer either way; JSON.parse then refuses
 * the text at or before the point where the scan went wrong, never deeper than the scan counted.
 */
export function jsonTooDeep(text: string, max = MAX_BODY_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return false;
}

/**
 * The same for a multipart body, whose fields Elysia reads as JSON when they start with `[` or `{`: every bracket
 * counts, quoted or not (quotes in a multipart body are not JSON's, so they cannot be trusted to open strings).
 */
export function bracketsTooDeep(text: string, max = MAX_BODY_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if ((c === 93 || c === 125) && depth > 0) {
      depth--;
    }
  }
  return false;
}

const bodyTooLarge = () => new AppError(413, BODY_TOO_LARGE, "body_too_large");

/**
 * Refuses a body larger than `maxBytes` (413) or nested deeper than `MAX_BODY_DEPTH` (400) before anything parses
 * it. Reads a copy of the body (the route's own parser then reads the original), so parsing and its errors stay
 * Elysia's. Only JSON and multipart bodies are scanned for depth: the others are parsed flat.
 */
export async function checkBody(request: Request, contentType: string, maxBytes: number) {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw bodyTooLarge();
  if (!request.body) return;
  const bytes = await readAtMost(request.clone(), maxBytes);
  const type = contentType.toLowerCase();
  const json = type === "application/json" || type.endsWith("+json");
  if (!json && type !== "multipart/form-data") return;
  const text = new TextDecoder().decode(bytes);
  if (json ? jsonTooDeep(text) : bracketsTooDeep(text)) throw new AppError(400, BODY_TOO_DEEP, "body_too_deep");
}

/** The body's bytes, or 413 as soon as more than `maxBytes` arrived (a body without Content-Length included). */
async function readAtMost(request: Request, maxBytes: number): Promise<Uint8Array> {
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => {});
      throw bodyTooLarge();
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// ---- the route declaration

/** The route's options as a macro's `introspect` sees them (its documented answers may be changed). */
type RouteOptions = { response?: unknown };

/**
 * The `writeLimit` route option: `.post(path, handler, { writeLimit: { name: "board.post", account: 10, address:
 * 200 }, body, response, detail })`. Before the body is read: its size (413) and depth (400); once it is parsed and
 * validated, before the handler: the limit (429). The route's documented answers get the 429 and its OpenAPI
 * operation an `x-write-limit` with the figures.
 */
export function writeLimits(ctx: ModuleContext) {
  const limiter = writeLimiter(ctx);
  return new Elysia().macro({
    writeLimit: (limit: WriteLimit) => {
      const maxBytes = limit.body ?? DEFAULT_BODY_LIMIT;
      if (maxBytes > MAX_BODY_LIMIT) throw new Error(`write limit ${limit.name}: body above MAX_BODY_LIMIT`);
      limiter.declare(limit);
      return {
        // A parse hook runs first of the route's own work, before the body is read. It answers nothing
        // (undefined), so the body is then parsed as usual.
        async parse(context: { request: Request }, contentType: string) {
          await checkBody(context.request, contentType ?? "", maxBytes);
        },
        // After the body is parsed and validated, before the handler: what is counted is a write the route would
        // perform (a malformed one costs its parse and check only, and a user correcting a form is not counted).
        async beforeHandle({ request }: { request: Request }) {
          await limiter.admit(limit, request);
        },
        introspect(options: RouteOptions) {
          // Every limited route may answer 429: documented with the others (a route's own 429 text stays).
          const answers = options.response as Record<number, unknown> | undefined;
          if (answers && !(429 in answers)) {
            options.response = { ...answers, 429: errorSchema(429, ERROR_DESCRIPTIONS[429]) };
          }
        },
        // An OpenAPI extension of the operation: clients read the budget, and a test checks every write has one.
        detail: {
          "x-write-limit": {
            account: limit.account,
            address: limit.address,
            window_seconds: (limit.windowMs ?? DEFAULT_WRITE_WINDOW_MS) / 1000,
            max_body_bytes: maxBytes,
          },
        } as DocumentDecoration,
      };
    },
  });
}
