/**
 * The import boundaries (design.md "The module contract", web/README "Calling the server"):
 * - a module imports another module only through its `index.ts` (its public API), and the kernel imports no module;
 *   the app's own code (apps, cli, db) goes through `index.ts` too. Test code is free to wire whole apps (another
 *   module's test-support, migrations);
 * - the web app imports server code only as types (erased from the bundle), except the few files of pure logic the
 *   server and the web share (`SHARED_WITH_WEB`), which import nothing else of the server; the built bundle holds
 *   nothing else from outside web/.
 *
 * A test, not a Biome rule: Biome 2.6's `noRestrictedImports` matches the import's text, so a relative path cannot
 * tell a module's own subfolder from another module, nor `import type` from a value import; `noPrivateImports` needs a
 * visibility tag on every export of every module.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";
import ts from "typescript";

const root = resolve(import.meta.dir, "../..");

/** Pure logic used by both the server and the web app (design.md): the only server files the web may bundle. */
export const SHARED_WITH_WEB = [
  "modules/admin/labels.ts",
  "modules/board/rules.ts",
  "modules/duel/rules.ts",
  "modules/guilds/rules.ts",
  "modules/kernel/account-rules.ts",
  "modules/kernel/race-steps.ts",
  "modules/kernel/routing.ts",
  "modules/kernel/seoul-time.ts",
  "modules/kernel/session-end.ts",
  "modules/kernel/text-rules.ts",
  "modules/kernel/typing.ts",
  "modules/moderation/rules.ts",
  "modules/practice/dubeolsik.ts",
  "modules/practice/key-caps.ts",
  "modules/practice/keystroke-model.ts",
  "modules/practice/layouts.ts",
  "modules/practice/rules.ts",
  "modules/practice/sebeolsik-390.ts",
  "modules/practice/sebeolsik-final.ts",
  "modules/practice/sebeolsik.ts",
  "modules/rooms/private-rules.ts",
];

const TEST_FILE = /(\.test|^test-[a-z-]+|^testing(-[a-z]+)?|-testing|-suite)\.tsx?$/;
/** Tests and their helpers (fixtures, test-support, *-testing): they may build whole apps out of any module's parts. */
export const isTestCode = (path: string) => path.split("/").includes("fixtures") || TEST_FILE.test(basename(path));

const sourceFiles = (...folders: string[]) =>
  folders
    .flatMap((folder) => [...new Glob(`${folder}/**/*.{ts,tsx}`).scanSync(root)])
    .filter((p) => !p.endsWith(".d.ts"));

/** Where a relative import lands, as a path from the repository's root (a folder for `../rooms`); null for packages. */
function target(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(root, dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, "index.ts"), base]) {
    if (existsSync(candidate) && (candidate === base ? statSync(base).isFile() : true))
      return relative(root, candidate);
  }
  return relative(root, base);
}

/** Every import of a file: `import`, `import type`, `export … from`, `import()`, `declare module`. */
export function allImports(path: string, text = readFileSync(join(root, path), "utf8")): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };
/** The imports that stay in the JavaScript (not `import type`, not `import { type … }` alone). */
export function valueImports(text: string, path = "file.ts"): string[] {
  const transpiler = path.endsWith(".tsx") ? transpilers.tsx : transpilers.ts;
  return transpiler.scanImports(text).map((entry) => entry.path);
}

/** A module's import of another module that is not through that module's `index.ts`, or the kernel importing one. */
export function moduleBoundaryViolation(from: string, specifier: string): string | null {
  const to = target(from, specifier);
  if (!to?.startsWith("modules/")) return null;
  const [, other, ...rest] = to.split("/");
  const own = from.startsWith("modules/") ? from.split("/")[1] : null;
  if (other === own) return null;
  if (own === "kernel") return `${from}: the kernel imports no module (${specifier})`;
  if (isTestCode(from) || other === "kernel") return null;
  const throughIndex = rest.length === 0 || (rest.length === 1 && rest[0] === "index.ts");
  return throughIndex ? null : `${from}: imports ${to}; another module is used only through modules/${other}/index.ts`;
}

/** A value import of the web app (or of a shared file) that would bundle server code. */
export function webBoundaryViolation(from: string, specifier: string): string | null {
  const to = target(from, specifier);
  if (to === null || to.startsWith("web/")) return null;
  if (SHARED_WITH_WEB.includes(to)) return null;
  return `${from}: imports ${to} as a value; the web imports server code only as types (\`import type\`)`;
}

describe("import boundaries", () => {
  test("a module imports another module only through its index.ts; the kernel imports no module", () => {
    const violations = sourceFiles("modules", "apps", "cli", "db").flatMap((from) =>
      allImports(from).flatMap((specifier) => moduleBoundaryViolation(from, specifier) ?? []),
    );
    expect(violations).toEqual([]);
  });

  test("the web imports server code only as types, and the shared files import only each other", () => {
    const violations = [...sourceFiles("web/src"), ...SHARED_WITH_WEB].flatMap((from) =>
      valueImports(readFileSync(join(root, from), "utf8"), from).flatMap(
        (specifier) => webBoundaryViolation(from, specifier) ?? [],
      ),
    );
    expect(violations).toEqual([]);
  });

  test("the rules catch what they forbid", () => {
    const guilds = "modules/guilds/room.ts";
    expect(moduleBoundaryViolation(guilds, "../rooms/runtime")).toContain("modules/rooms/index.ts");
    expect(moduleBoundaryViolation(guilds, "../rooms")).toBeNull();
    expect(moduleBoundaryViolation(guilds, "./rules")).toBeNull();
    expect(moduleBoundaryViolation(guilds, "../kernel/socket")).toBeNull();
    expect(moduleBoundaryViolation("modules/kernel/socket.ts", "../rooms")).toContain("the kernel imports no module");
    expect(moduleBoundaryViolation("modules/profile/test-support.ts", "../rooms/test-support")).toBeNull();
    expect(moduleBoundaryViolation("apps/server/io.ts", "../../modules/rooms/socket")).toContain("index.ts");

    const page = "web/src/features/rooms/use-room.ts";
    const imports = (text: string) => valueImports(text).flatMap((s) => webBoundaryViolation(page, s) ?? []);
    expect(imports('import type { RoomView } from "../../../../modules/rooms"; let r: RoomView;')).toEqual([]);
    expect(imports('import { type RoomView } from "../../../../modules/rooms"; let r: RoomView;')).toEqual([]);
    expect(imports('import { isChatLine } from "../../../../modules/kernel/typing"; isChatLine;')).toEqual([]);
    expect(imports('import { roomsModule } from "../../../../modules/rooms"; roomsModule;')).toHaveLength(1);
    // Not marked as a type: it could be a value, so it is refused even when only used as a type.
    expect(imports('import { RoomView } from "../../../../modules/rooms"; let r: RoomView;')).toHaveLength(1);
  });

  test("the web bundle holds no server file but the shared ones", async () => {
    const result = await Bun.build({
      entrypoints: [join(root, "web/index.html")],
      splitting: true,
      metafile: true,
      throw: false,
      define: { "process.env.NODE_ENV": JSON.stringify("production") },
      env: "disable",
    });
    expect(result.success).toBe(true);
    const outside = Object.keys(result.metafile?.inputs ?? {})
      .map((input) => relative(root, resolve(root, input)))
      .filter((input) => !input.startsWith("web/") && !input.includes("node_modules/"));
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.filter((input) => !SHARED_WITH_WEB.includes(input))).toEqual([]);
  });
});
