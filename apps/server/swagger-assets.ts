import { dirname, join } from "node:path";

const swaggerDir = dirname(Bun.resolveSync("swagger-ui-dist/package.json", import.meta.dir));
const fontDir = dirname(Bun.resolveSync("@fontsource/noto-sans-kr/package.json", import.meta.dir));

/** The Swagger UI's theme: its own CSS, then Noto Sans KR (unicode-range slices, served below) for every text. */
export const SWAGGER_THEME = "/swagger-assets/tajamadang.css";
const FONT_URL = "/swagger-assets/fonts/";
const FONT_FILE = /^noto-sans-kr-[\w-]+\.woff2?$/;
const ASSET_FILE = /^[\w.-]+\.(js|css|png|map)$/;

// Swagger UI's fonts (sans-serif, monospace) have no Hangul on a bare server or client: the summaries and
// descriptions are Korean. Code blocks keep a monospace font, with Noto Sans KR for the Hangul in them.
const OVERRIDE = `
.swagger-ui, .swagger-ui .info .title, .swagger-ui .opblock-tag, .swagger-ui .opblock .opblock-summary-description,
.swagger-ui .markdown p, .swagger-ui .renderedMarkdown p, .swagger-ui table, .swagger-ui label, .swagger-ui input,
.swagger-ui select, .swagger-ui textarea, .swagger-ui button, .swagger-ui .model, .swagger-ui .response-col_description {
  font-family: "Noto Sans KR", sans-serif;
}
.swagger-ui pre, .swagger-ui code, .swagger-ui .microlight { font-family: monospace, "Noto Sans KR"; }
`;

let theme: Promise<string> | null = null;

async function buildTheme() {
  const [base, regular, bold] = await Promise.all([
    Bun.file(join(swaggerDir, "swagger-ui.css")).text(),
    Bun.file(join(fontDir, "400.css")).text(),
    Bun.file(join(fontDir, "700.css")).text(),
  ]);
  const fonts = `${regular}\n${bold}`.replaceAll("url(./files/", `url(${FONT_URL}`);
  return `${base}\n${fonts}\n${OVERRIDE}`;
}

/** The file behind `/swagger-assets/<name>` (the theme, a Swagger UI file or a font slice), or null. */
export async function swaggerAsset(name: string): Promise<Response | null> {
  if (`/swagger-assets/${name}` === SWAGGER_THEME) {
    theme ??= buildTheme();
    return new Response(await theme, { headers: { "content-type": "text/css; charset=utf-8" } });
  }
  if (!ASSET_FILE.test(name)) return null;
  const file = Bun.file(join(swaggerDir, name));
  return (await file.exists()) ? new Response(file) : null;
}

export async function swaggerFont(name: string): Promise<Response | null> {
  if (!FONT_FILE.test(name)) return null;
  const file = Bun.file(join(fontDir, "files", name));
  if (!(await file.exists())) return null;
  return new Response(file, { headers: { "cache-control": "public, max-age=31536000, immutable" } });
}
