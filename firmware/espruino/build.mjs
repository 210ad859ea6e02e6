#!/usr/bin/env node
// `npm run espruino:build`: builds the real Espruino interpreter (its Linux target) at the commit pinned in
// pin.json, for the tests and benchmarks that run the firmware bundles on it. Offline when the source is at hand:
//   1. ESPRUINO_SRC: a source tarball (.tar.gz) or folder;
//   2. else ../shared/espruino/espruino-src.tar.gz beside the project, when present;
//   3. else a clone of the public repository at the pinned commit (needs the network).
// The binary is cached outside git (interpreter.mjs: cacheDir) and rebuilt only when the pin or the patches change.
// ESPRUINO_BIN=/path/to/espruino skips the build and uses that binary.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { cacheDir, cacheRoot, locate, MAKE_ARGS, PATCHES, pin, projectRoot } from "./interpreter.mjs";

const HELP = `Usage: npm run espruino:build [-- --force] [-- --if-source]

Builds Espruino ${pin.version} (commit ${pin.commit.slice(0, 12)}) for Linux, the real interpreter the firmware
tests run the gun bundles on. Needs gcc, make, python3, git (and tar for a tarball); about 1-4 minutes on 2 cores.

Source, first found: ESPRUINO_SRC (tarball or folder), ../shared/espruino/espruino-src.tar.gz, a git clone of
${pin.repo} (network).
Cache: ${cacheDir()} (CNG_ESPRUINO_CACHE moves it); built again only when firmware/espruino/pin.json or the
patches change, or with --force.
ESPRUINO_BIN=/path/to/espruino uses an interpreter you built yourself.
--if-source: when no source can be had (none at hand and no network), say so and exit 0: the tests on the real
interpreter are then skipped, and say so (npm test uses it; a failing build still fails).`;

let ifSource = false;

function say(line) {
  process.stderr.write(`espruino: ${line}\n`);
}
function die(line) {
  say(line);
  process.exit(1);
}

/** Prints `cng-ok <version>` when the binary runs; the version it reports, or why not. */
function probe(bin) {
  const cwd = mkdtempSync(join(tmpdir(), "cng-espruino-probe-"));
  try {
    const r = spawnSync(bin, ["-e", 'print("cng-ok "+process.env.VERSION);quit();'], {
      cwd,
      encoding: "utf8",
      timeout: 20_000,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const m = /cng-ok (\S+)/.exec(r.stdout ?? "");
    if (m) return { version: m[1] };
    return { why: `${bin} did not run: ${r.error?.message ?? (r.stderr || r.stdout || `exit ${r.status}`).trim()}` };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function have(cmd) {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}

/** The source folder to build in (a fresh copy in `work`), and where it came from. */
function fetchSource(work) {
  const dest = join(work, "Espruino");
  const fromTarball = (tgz) => {
    mkdirSync(join(work, "x"));
    const r = spawnSync("tar", ["xzf", tgz, "-C", join(work, "x")], { encoding: "utf8" });
    if (r.status !== 0) die(`cannot unpack ${tgz}: ${r.stderr.trim()}`);
    const top = ["Espruino", "."].map((d) => join(work, "x", d)).find((d) => existsSync(join(d, "boards", "LINUX.py")));
    if (!top) die(`${tgz} holds no Espruino source (no boards/LINUX.py in it or in Espruino/)`);
    renameSync(top, dest);
  };
  const env = process.env.ESPRUINO_SRC;
  if (env) {
    if (!existsSync(env)) die(`ESPRUINO_SRC=${env} does not exist`);
    if (/\.(tar\.gz|tgz)$/.test(env)) fromTarball(env);
    else {
      if (!existsSync(join(env, "boards", "LINUX.py"))) die(`ESPRUINO_SRC=${env} is not an Espruino source folder`);
      cpSync(env, dest, { recursive: true, filter: (s) => !s.includes(`${env}/.git/`) && !s.endsWith("/.git") });
    }
    return `ESPRUINO_SRC (${env})`;
  }
  const shared = join(projectRoot, "..", "shared", "espruino", "espruino-src.tar.gz");
  if (existsSync(shared)) {
    fromTarball(shared);
    return shared;
  }
  say(`no local source (ESPRUINO_SRC, ${shared}): cloning ${pin.repo} at ${pin.commit.slice(0, 12)}`);
  mkdirSync(dest);
  for (const args of [
    ["init", "-q"],
    ["remote", "add", "origin", pin.repo],
    ["fetch", "-q", "--depth", "1", "origin", pin.commit],
    ["-c", "advice.detachedHead=false", "checkout", "-q", "FETCH_HEAD"],
  ]) {
    const r = spawnSync("git", args, { cwd: dest, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    if (r.status !== 0) {
      const why = `git ${args.join(" ")} failed: ${r.stderr.trim()}\n  (no network? set ESPRUINO_SRC)`;
      if (!ifSource) die(why);
      say(`WARNING: no Espruino source to build from: ${why}`);
      say("WARNING: the tests on the real interpreter will be skipped");
      return null;
    }
  }
  return pin.repo;
}

function patch(src) {
  for (const p of PATCHES) {
    const file = join(src, p.file);
    const text = readFileSync(file, "utf8");
    const out = text.replace(p.from, p.to);
    if (out === text) die(`patch "${p.why}" does not apply to ${p.file}: is this the pinned commit ${pin.commit}?`);
    writeFileSync(file, out);
  }
  // the Makefile reads the commit from git: a tarball's copy gets a repository of its own
  if (!existsSync(join(src, ".git"))) {
    for (const args of [
      ["init", "-q"],
      ["add", "-A"],
      ["-c", "user.name=build", "-c", "user.email=build@localhost", "commit", "-qm", `Espruino ${pin.commit}`],
    ]) {
      const r = spawnSync("git", args, { cwd: src, encoding: "utf8" });
      if (r.status !== 0) die(`git ${args[0]} in the source copy failed: ${r.stderr.trim()}`);
    }
  }
}

/** make, with a progress line every 10 s and the tail of the output when it fails. */
function make(src) {
  const jobs = String(Math.max(1, availableParallelism()));
  mkdirSync(join(src, "bin"), { recursive: true });
  return new Promise((resolve) => {
    const child = spawn("make", [`-j${jobs}`, ...MAKE_ARGS], {
      cwd: src,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const tail = [];
    let compiled = 0;
    let buf = "";
    const onData = (d) => {
      buf += d.toString();
      const lines = buf.split("\n");
      buf = lines.pop();
      for (const l of lines) {
        if (/^\s*CC\s/.test(l)) compiled++;
        tail.push(l);
        if (tail.length > 40) tail.shift();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const t0 = Date.now();
    const timer = setInterval(
      () => say(`compiling… ${compiled} files, ${Math.round((Date.now() - t0) / 1000)} s`),
      10_000,
    );
    child.on("close", (code) => {
      clearInterval(timer);
      if (code !== 0) die(`make failed (exit ${code}); its last lines:\n${tail.join("\n")}`);
      resolve(compiled);
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const unknown = args.filter((a) => a !== "--force" && a !== "--if-source");
  if (unknown.length) die(`unknown option ${unknown[0]} (try --help)`);
  const force = args.includes("--force");
  ifSource = args.includes("--if-source");

  const found = locate();
  if (process.env.ESPRUINO_BIN) {
    if (!found.path) die(found.why);
    const p = probe(found.path);
    if (!p.version) die(p.why);
    say(`using ESPRUINO_BIN=${found.path} (reports ${p.version}; the pin is ${pin.version})`);
    return;
  }
  if (found.path && !force) {
    const p = probe(found.path);
    if (p.version) {
      say(`${pin.version} is built: ${found.path}`);
      return;
    }
    say(`the cached interpreter does not run (${p.why}): building it again`);
  }

  const missing = ["make", "gcc", "python3", "git", "tar"].filter((c) => !have(c));
  if (missing.length) {
    die(
      `cannot build Espruino: ${missing.join(", ")} not found. On Debian/Ubuntu: ` +
        `sudo apt-get install -y build-essential python3 git tar`,
    );
  }
  mkdirSync(cacheRoot(), { recursive: true });
  const work = mkdtempSync(join(cacheRoot(), "build-"));
  try {
    const t0 = Date.now();
    const from = fetchSource(work);
    if (from === null) return;
    say(`building ${pin.version} (${pin.commit.slice(0, 12)}) from ${from}`);
    const src = join(work, "Espruino");
    patch(src);
    const files = await make(src);
    const built = join(src, "bin", "espruino");
    const p = probe(built);
    if (!p.version) die(p.why);
    if (p.version !== pin.version) say(`note: the build reports ${p.version}, the pin says ${pin.version}`);
    const dir = cacheDir();
    mkdirSync(dir, { recursive: true });
    const seconds = Math.round((Date.now() - t0) / 100) / 10;
    writeFileSync(
      join(dir, "build.json"),
      `${JSON.stringify({ ...pin, reports: p.version, from, files, seconds, builtAt: new Date().toISOString() }, null, 2)}\n`,
    );
    // rename last: a half-built cache is never picked up
    renameSync(built, join(dir, "espruino"));
    say(`built in ${seconds} s (${files} files): ${join(dir, "espruino")}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => die(e.stack || String(e)));
