/**
 * Draws the app icon (a white 타 of the bundled Noto Sans KR on the brand blue, full bleed so it also serves as a
 * maskable icon) with Chromium and writes web/public/: favicon.ico (16, 32, 48 px), apple-touch-icon.png (180),
 * icon-192.png, icon-512.png and manifest.webmanifest. Run it again only to change the design:
 * `bun scripts/make-icons.ts`.
 *
 * The web build hashes what index.html links (the manifest becomes /assets/manifest-<hash>.webmanifest), so the
 * manifest cannot name the icon files by path: it carries them as data: URLs (about 6 KB, fetched only when a
 * browser looks at the manifest).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { launchBrowser } from "../e2e/helpers";

const root = resolve(import.meta.dir, "..");
const out = join(root, "web/public");
const font = readFileSync(
  join(root, "node_modules/@fontsource/noto-sans-kr/files/noto-sans-kr-korean-700-normal.woff2"),
).toString("base64");

const page = (size: number) => `<!doctype html><html><head><style>
@font-face { font-family: icon; src: url(data:font/woff2;base64,${font}) format("woff2"); font-weight: 700; }
html, body { margin: 0; width: ${size}px; height: ${size}px; overflow: hidden; }
body { display: grid; place-items: center; background: #1f6feb; }
span { font: 700 ${Math.round(size * 0.62)}px/1 icon; color: #fff; transform: translateY(-3%); }
</style></head><body><span>타</span></body></html>`;

/** An ICO file holding PNG images (supported by every browser since Windows Vista's format change). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

/** The web app manifest: Korean name, the brand colours, the icons inline. */
const manifest = (icons: Record<192 | 512, Buffer>) => ({
  id: "/",
  name: "타자마당",
  short_name: "타자마당",
  description: "실시간으로 함께 즐기는 한국어 타자 게임",
  lang: "ko",
  start_url: "/",
  scope: "/",
  display: "standalone",
  background_color: "#f4f6fb",
  theme_color: "#1f6feb",
  icons: ([192, 512] as const).map((size) => ({
    src: `data:image/png;base64,${icons[size].toString("base64")}`,
    sizes: `${size}x${size}`,
    type: "image/png",
    purpose: "any",
  })),
});

const browser = await launchBrowser();
try {
  const render = async (size: number) => {
    const tab = await browser.newPage({ viewport: { width: size, height: size } });
    await tab.setContent(page(size));
    await tab.evaluate(() => document.fonts.ready);
    const png = await tab.screenshot({ type: "png" });
    await tab.close();
    return png;
  };
  const favicon = await Promise.all([16, 32, 48].map(async (size) => ({ size, png: await render(size) })));
  writeFileSync(join(out, "favicon.ico"), ico(favicon));
  writeFileSync(join(out, "apple-touch-icon.png"), await render(180));
  const icons = { 192: await render(192), 512: await render(512) };
  writeFileSync(join(out, "icon-192.png"), icons[192]);
  writeFileSync(join(out, "icon-512.png"), icons[512]);
  writeFileSync(join(out, "manifest.webmanifest"), `${JSON.stringify(manifest(icons), null, 2)}\n`);
  console.log(`icons written to ${out}`);
} finally {
  await browser.close();
}
