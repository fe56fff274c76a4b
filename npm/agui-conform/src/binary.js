// Where the agui-conform executable comes from: $AGUI_CONFORM_BIN when set
// (a build of your own wins, as ESBUILD_BINARY_PATH does for esbuild), else
// the per-platform package npm installed from optionalDependencies
// (@agui-conform/<platform>-<arch>, the esbuild/biome pattern), else one on
// PATH. None: a ConformError naming all three.

import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { ConformError } from "./errors.js";

const require = createRequire(import.meta.url);
const EXE = process.platform === "win32" ? "agui-conform.exe" : "agui-conform";

/** The platform package of each platform a binary is published for
 * (keys: `${process.platform}-${process.arch}`). */
export const PLATFORM_PACKAGES = Object.freeze({
  "linux-x64": "@agui-conform/linux-x64",
  "linux-arm64": "@agui-conform/linux-arm64",
  "darwin-x64": "@agui-conform/darwin-x64",
  "darwin-arm64": "@agui-conform/darwin-arm64",
  "win32-x64": "@agui-conform/win32-x64",
});

function executable(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === "win32" ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fromPackage(tried) {
  const key = `${process.platform}-${process.arch}`;
  const name = PLATFORM_PACKAGES[key];
  if (!name) {
    tried.push(`no platform package is published for ${key}`);
    return undefined;
  }
  let manifest;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    tried.push(`the platform package ${name} is not installed (an optional dependency: npm skips it with --omit=optional or --no-optional)`);
    return undefined;
  }
  const bin = join(dirname(manifest), "bin", EXE);
  if (executable(bin)) return bin;
  tried.push(`the platform package ${name} has no executable ${bin}`);
  return undefined;
}

function fromPath(tried) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, EXE);
    if (executable(candidate)) return candidate;
  }
  tried.push("no agui-conform on PATH");
  return undefined;
}

let cached;

/**
 * The agui-conform executable this package runs: `$AGUI_CONFORM_BIN`, else
 * the platform package's binary, else `agui-conform` on PATH. Throws a
 * ConformError naming all three when none is there, or when
 * `$AGUI_CONFORM_BIN` names no executable file.
 */
export function binary() {
  const explicit = process.env.AGUI_CONFORM_BIN;
  if (explicit) {
    if (executable(explicit)) return explicit;
    throw new ConformError(`AGUI_CONFORM_BIN is set to ${explicit}, which is not an executable file`);
  }
  if (cached && executable(cached)) return cached;
  const tried = ["AGUI_CONFORM_BIN is not set"];
  const found = fromPackage(tried) ?? fromPath(tried);
  if (found) {
    cached = found;
    return found;
  }
  throw new ConformError(
    "the agui-conform executable was not found: " +
      tried.join("; ") +
      ". Install the package with its optional dependencies (npm install agui-conform), " +
      "set AGUI_CONFORM_BIN to a built binary (cargo build -p agui-conform), or put agui-conform on PATH",
  );
}
