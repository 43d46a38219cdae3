import { useEffect, useRef } from "react";
import { type Block, BULLET_MS, type Bullet, blockX, FIELD } from "./duel-state";

const COLORS = { static: "#1f6feb", moving_left: "#c62f3c", moving_right: "#1a7f4b" } as const;
const BLOCK_HEIGHT = 30;

/**
 * The 800×500 field (scaled by CSS). Blocks are drawn every animation frame from their last server position and
 * speed (`blockX`), read from a ref: moving blocks cost no React render.
 */
export function DuelCanvas({ blocks, bullets }: { blocks: Block[]; bullets: Bullet[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const latest = useRef({ blocks, bullets });
  latest.current = { blocks, bullets };

  useEffect(() => {
    let frame = 0;
    const draw = () => {
      const context = canvas.current?.getContext("2d");
      if (context) paint(context, latest.current.blocks, latest.current.bullets, performance.now());
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, []);

  return (
    <canvas
      ref={canvas}
      className="duel-canvas"
      width={FIELD.width}
      height={FIELD.height}
      aria-label="단어 블록이 움직이는 대결 화면"
    />
  );
}

function paint(context: CanvasRenderingContext2D, blocks: Block[], bullets: Bullet[], now: number) {
  context.clearRect(0, 0, FIELD.width, FIELD.height);
  // Red's edge on the left, blue's on the right: a block reaching an edge costs that side a life.
  context.fillStyle = "rgba(198, 47, 60, 0.12)";
  context.fillRect(0, 0, 6, FIELD.height);
  context.fillStyle = "rgba(31, 111, 235, 0.12)";
  context.fillRect(FIELD.width - 6, 0, 6, FIELD.height);
  context.font = "600 16px 'Noto Sans KR', sans-serif";
  context.textAlign = "center";
  context.textBaseline = "middle";
  drawBullets(context, blocks, bullets, now);
  for (const block of blocks) {
    const x = blockX(block, now);
    const width = context.measureText(block.word).width + 24;
    context.fillStyle = COLORS[block.status];
    roundRect(context, x - width / 2, block.y - BLOCK_HEIGHT / 2, width, BLOCK_HEIGHT, 8);
    context.fillStyle = "#ffffff";
    context.fillText(block.word, x, block.y);
  }
}

/** A fired bullet: a line from the firing side's edge to its block, fading over BULLET_MS. */
function drawBullets(context: CanvasRenderingContext2D, blocks: Block[], bullets: Bullet[], now: number) {
  for (const bullet of bullets) {
    const age = now - bullet.at;
    const block = blocks.find((b) => b.id === bullet.blockId);
    if (!block || age < 0 || age > BULLET_MS) continue;
    const from = bullet.side === "red" ? 0 : FIELD.width;
    const reach = Math.min(1, age / (BULLET_MS / 2));
    const to = from + (blockX(block, now) - from) * reach;
    context.strokeStyle = bullet.side === "red" ? "rgba(198, 47, 60, 0.8)" : "rgba(31, 111, 235, 0.8)";
    context.globalAlpha = 1 - age / BULLET_MS;
    context.lineWidth = 3;
    context.beginPath();
    context.moveTo(from, block.y);
    context.lineTo(to, block.y);
    context.stroke();
    context.globalAlpha = 1;
  }
}

function roundRect(context: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  context.beginPath();
  context.roundRect(x, y, w, h, r);
  context.fill();
}
