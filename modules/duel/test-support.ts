import type { Socket } from "socket.io-client";
import type { TestServer } from "../../apps/server/testing";
import { openTestClient, TestClient } from "../kernel/socket-testing";

/** The kernel's test socket client, which for the duel's integration tests also keeps the duel's blocks. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever payload the event carries
type Payload = any;

export interface SeenBlock {
  id: number;
  word: string;
  status: string;
  speed: number;
  x: number;
  y: number;
}

export class DuelClient extends TestClient {
  /** The duel's blocks as this client knows them from the events (game_start, new_word, block_defended, moves). */
  readonly blocks = new Map<number, SeenBlock>();
  side: "red" | "blue" | null = null;
  sessionId: string | null = null;

  protected override onEvent(event: string, payload: Payload) {
    this.track(event, payload);
  }

  private track(event: string, payload: Payload) {
    if (event === "duel:match_found") {
      this.side = payload.your_side;
      this.sessionId = payload.session_id;
      this.blocks.clear();
    }
    if (payload?.session_id !== this.sessionId) return;
    if (event === "duel:game_start") {
      this.blocks.clear();
      for (const b of payload.state.word_blocks) this.blocks.set(b.id, b);
    }
    if (event === "duel:word_position_update") {
      const block = this.blocks.get(payload.block_id);
      if (block) Object.assign(block, { status: payload.status, speed: payload.speed });
    }
    if (event === "duel:new_word") {
      this.blocks.delete(payload.replaced_block_id);
      for (const b of payload.word_blocks) this.blocks.set(b.id, b);
    }
    if (event === "duel:block_defended") {
      this.blocks.delete(payload.block_id);
      for (const b of payload.new_blocks) this.blocks.set(b.id, b);
    }
  }

  /** A static block's word (to fire), or the word of a block coming at this client (to defend). */
  word(kind: "static" | "incoming"): SeenBlock {
    const incoming = this.side === "red" ? "moving_left" : "moving_right";
    const block = [...this.blocks.values()].find((b) => b.status === (kind === "static" ? "static" : incoming));
    if (!block) throw new Error(`no ${kind} block; blocks: ${JSON.stringify([...this.blocks.values()])}`);
    return block;
  }

  /** `ack` under the name the duel's tests use. */
  send(event: string, payload: unknown = {}): Promise<Payload> {
    return this.ack(event, payload);
  }
}

/** A test server or a process of a test cluster (only its address is used). */
export function openDuelClient(
  server: Pick<TestServer, "url">,
  auth: Record<string, string> = {},
): Promise<DuelClient> {
  return openTestClient(server, auth, (socket: Socket) => new DuelClient(socket));
}

export { closeAndWait } from "../kernel/socket-testing";
