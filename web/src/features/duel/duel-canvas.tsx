import { useEffect, useRef } from "react";
import { type Block, BULLET_MS, type Bullet, blockX, FIELD } from "./duel-state";

const COLORS = { static: "#1f6feb", moving_left: "#c62f3c", moving_right: "#1a7f4b" } as const;
/** On the 800×500 field: a block is 30 high, rows are 40 apart, words are 16 px. */
const BLOCK_HEIGHT = 30;
const ROW_GAP = 40;
const WORD_PX = 16;
/** Words are never drawn smaller than this on screen (CSS pixels): a phone's field is 343 px wide. */
export const MIN_WORD_PX = 14;

/** How the 800×500 field maps onto the canvas's pixels (its shown size × the device pixel ratio). */
interface View {
  width: number;
  height: number;
  sx: number;
  sy: number;
  ratio: number;
}

/**
 * The 800×500 field, drawn at the size it is shown (CSS decides: 800:500 on wide screens, a taller field on a phone
 * in portrait), in device pixels. Positions scale with the field; the words keep at least MIN_WORD_PX on screen,
 * so a phone does not shrink them to 7 px. Blocks are drawn every animation frame from their last server position
 * and speed (`blockX`), read from a ref: moving blocks cost no React render.
 */
export function DuelCanvas({ blocks, bullets }: { blocks: Block[]; bullets: Bullet[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const latest = useRef({ blocks, bullets });
  latest.current = { blocks, bullets };

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const resize = () => {
      const ratio = window.devicePixelRatio || 1;
      const width = Math.max(1, Math.round(element.clientWidth * ratio));
      const height = Math.max(1, Math.round(element.clientHeight * ratio));
      if (element.width !== width) element.width = width;
      if (element.height !== height) element.height = height;
    };
    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(element);
    let frame = 0;
    const draw = () => {
      const context = element.getContext("2d");
      if (context) {
        const ratio = window.devicePixelRatio || 1;
        const view = {
          width: element.width,
          height: element.height,
          sx: element.width / FIELD.width,
          sy: element.height / FIELD.height,
          ratio,
        };
        paint(context, latest.current.blocks, latest.current.bullets, performance.now(), view);
      }
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
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

function paint(context: CanvasRenderingContext2D, blocks: Block[], bullets: Bullet[], now: number, view: View) {
  const { width, height, sx, sy, ratio } = view;
  context.clearRect(0, 0, width, height);
  // Red's edge on the left, blue's on the right: a block reaching an edge costs that side a life.
  const edge = 6 * ratio;
  context.fillStyle = "rgba(198, 47, 60, 0.12)";
  context.fillRect(0, 0, edge, height);
  context.fillStyle = "rgba(31, 111, 235, 0.12)";
  context.fillRect(width - edge, 0, edge, height);
  const fontPx = Math.max(MIN_WORD_PX * ratio, WORD_PX * sx);
  // As high as the words need, never more than the rows allow (rows of a short field are close together).
  const blockHeight = Math.min(Math.max(BLOCK_HEIGHT * sy, fontPx + 8 * ratio), ROW_GAP * sy - 2 * ratio);
  context.font = `600 ${fontPx}px 'Noto Sans KR', sans-serif`;
  context.textAlign = "center";
  context.textBaseline = "middle";
  drawBullets(context, blocks, bullets, now, view);
  for (const block of blocks) {
    const x = blockX(block, now) * sx;
    const y = block.y * sy;
    const blockWidth = context.measureText(block.word).width + 16 * ratio;
    context.fillStyle = COLORS[block.status];
    roundRect(context, x - blockWidth / 2, y - blockHeight / 2, blockWidth, blockHeight, 8 * ratio);
    context.fillStyle = "#ffffff";
    context.fillText(block.word, x, y);
  }
}

/** A fired bullet: a line from the firing side's edge to its block, fading over BULLET_MS. */
function drawBullets(context: CanvasRenderingContext2D, blocks: Block[], bullets: Bullet[], now: number, view: View) {
  for (const bullet of bullets) {
    const age = now - bullet.at;
    const block = blocks.find((b) => b.id === bullet.blockId);
    if (!block || age < 0 || age > BULLET_MS) continue;
    const from = bullet.side === "red" ? 0 : view.width;
    const reach = Math.min(1, age / (BULLET_MS / 2));
    const to = from + (blockX(block, now) * view.sx - from) * reach;
    const y = block.y * view.sy;
    context.strokeStyle = bullet.side === "red" ? "rgba(198, 47, 60, 0.8)" : "rgba(31, 111, 235, 0.8)";
    context.globalAlpha = 1 - age / BULLET_MS;
    context.lineWidth = 3 * view.ratio;
    context.beginPath();
    context.moveTo(from, y);
    context.lineTo(to, y);
    context.stroke();
    context.globalAlpha = 1;
  }
}

function roundRect(context: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  context.beginPath();
  context.roundRect(x, y, w, h, r);
  context.fill();
}
