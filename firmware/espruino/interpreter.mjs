// The real Espruino interpreter (its Linux build), for tests and benchmarks that run the firmware bundles on it.
// Built from source at the commit pinned in pin.json (see build.mjs), cached outside git; never committed.
// Both the build script and the hub (`hub/src/sim/espruino/interpreter.ts`) find it through `locate()`.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const projectRoot = join(here, "..", "..");
export const pin = JSON.parse(readFileSync(join(here, "pin.json"), "utf8"));

/**
 * The changes the Linux build needs, applied to `boards/LINUX.py` of the pinned source. Part of the cache key:
 * change one and every cached binary is rebuilt.
 */
export const PATCHES = [
  // TensorFlow is not in the offline source subset, and no test needs it
  { file: "boards/LINUX.py", from: /'TENSORFLOW',?/, to: "", why: "no TensorFlow" },
  // pins D0..D40, so the ESP32 profiles' pin names (D4 … D35) exist
  { file: "boards/LINUX.py", from: "generate_pins(0,32)", to: "generate_pins(0,40)", why: "pins D0-D40" },
  // stdin (the board's USB) is read in the main loop, not in the Linux build's input thread: that thread appends
  // to the IO event queue while the main loop pops it, with no lock (a board does this in an IRQ, atomically),
  // and a steady input (a test feeding the motion) corrupts the queue within a minute: "ASSERT(len <= 64) FAILED".
  // And an end of input (the harness gone) exits instead of spinning on a closed stdin.
  {
    file: "targets/linux/jshardware.c",
    from: `    // Read from the console if we have space
    while (kbhit() && (jshGetEventsUsed()<IOBUFFERMASK/2)) {
      int ch = getch();
      if (ch<0) break;
      if (ch==4) exit(0); // exit on Ctrl-D
      jshPushIOCharEvent(EV_USBSERIAL, (char)ch);
    }
`,
    to: "",
    why: "stdin out of the input thread",
  },
  {
    file: "targets/linux/jshardware.c",
    from: `void jshIdle() {
  // all done in the thread now...
}`,
    to: `void jshIdle() {
  // the console's input, read in the main loop (see firmware/espruino/interpreter.mjs)
  while (kbhit() && (jshGetEventsUsed()<IOBUFFERMASK/2)) {
    unsigned char c;
    int r = (int)read(STDIN_FILENO, &c, 1);
    if (r == 0) exit(0); // end of input
    if (r < 0) break;
    if (c==4) exit(0); // exit on Ctrl-D
    jshPushIOCharEvent(EV_USBSERIAL, (char)c);
  }
}`,
    why: "stdin in the main loop",
  },
  // Flash reads from a mapping of the flash file, not an open, seek, read and close of it per read: code stored in
  // Storage (the board, the firmware) is read from flash as it runs, and that file traffic was most of a gun's CPU.
  // A chip maps its flash into memory too; writes still go through the file, which the shared mapping sees.
  {
    file: "targets/linux/jshardware.c",
    from: "static FILE *jshFlashOpenFile(bool dontCreate) {",
    to: `#include <sys/mman.h>
static const unsigned char *flashMap; // the flash file, mapped once it exists
static FILE *jshFlashOpenFile(bool dontCreate) {`,
    why: "flash mapping",
  },
  {
    file: "targets/linux/jshardware.c",
    from: `  FILE *f = jshFlashOpenFile(true);
  if (!f) { // no file, so it's all 0xFF
    memset(buf, 0xFF, len);
    return;
  }
  fseek(f, addr, SEEK_SET);
  size_t r = fread(buf, 1, len, f);
  assert(r==len);
  fclose(f);
}`,
    to: `  if (!flashMap) {
    FILE *f = jshFlashOpenFile(true);
    if (!f) { // no file, so it's all 0xFF
      memset(buf, 0xFF, len);
      return;
    }
    void *m = mmap(0, FAKE_FLASH_BLOCKSIZE*FAKE_FLASH_BLOCKS, PROT_READ, MAP_SHARED, fileno(f), 0);
    fclose(f);
    assert(m != MAP_FAILED);
    if (m == MAP_FAILED) return;
    flashMap = (const unsigned char *)m;
  }
  memcpy(buf, flashMap + addr, len);
}`,
    why: "flash reads from the mapping",
  },
  // A socket open kept the main loop from ever sleeping: the network's idle answers "busy" while any socket exists,
  // so every gun with its MQTT connection spun a whole core polling it (an ESP32 spins too, but on a core of its
  // own; here it took the hub's and the tests'). What a socket brings in is queued as events, which keep the loop
  // awake; open sockets alone now let it sleep 1 ms at a time between polls, so a message waits at most that.
  {
    file: "libs/network/jswrap_net.c",
    from: `  bool b = socketIdle(&net);
  networkFree(&net);
  return b;`,
    to: `  extern bool jshSocketsOpen;
  jshSocketsOpen = socketIdle(&net);
  networkFree(&net);
  return false;`,
    why: "sockets let the loop sleep",
  },
  {
    file: "targets/linux/jshardware.c",
    from: `  if (usecs >= 1000)
    jshDelayMicroseconds(usecs);`,
    to: `  if (jshSocketsOpen && usecs > 1000)
    usecs = 1000; // poll the sockets every ms (libs/network/jswrap_net.c)
  if (usecs >= 1000)
    jshDelayMicroseconds(usecs);`,
    why: "a 1 ms sleep with sockets open",
  },
  {
    file: "targets/linux/jshardware.c",
    from: "bool jshSleep(JsSysTime timeUntilWake) {",
    to: "bool jshSocketsOpen; // set by the network's idle\nbool jshSleep(JsSysTime timeUntilWake) {",
    why: "the flag the network's idle sets",
  },
  // The telnet console (`--telnet`, as an ESP32 or ESP8266 build opens it on port 23 at every boot) on a port of
  // each gun's own: the Linux build's fixed 2323 is bound with SO_REUSEPORT, so every gun on this machine would
  // share it and a connection would reach any one of them.
  {
    file: "libs/network/telnet/jswrap_telnet.c",
    from: "#define PORT 2323 // avoid needing root permissions",
    to: '#define PORT (getenv("CNG_TELNET_PORT") ? atoi(getenv("CNG_TELNET_PORT")) : 2323)',
    why: "telnet port per gun",
  },
];

/**
 * make's settings. Optimised: the Linux target builds without (gcc's -O0) by default, and the tests run several
 * interpreters at once in real time, each sampling its IMU at 50-100 Hz. Part of the cache key.
 */
export const MAKE_ARGS = ["BOARD=LINUX", "PYTHON=python3", "OPTIMIZEFLAGS=-O2"];

/** Where cached interpreters live: CNG_ESPRUINO_CACHE, else the user's cache folder. */
export function cacheRoot(env = process.env) {
  if (env.CNG_ESPRUINO_CACHE) return env.CNG_ESPRUINO_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "cng-espruino");
}

/** One folder per pin + patches: a new pin builds anew, an unchanged one is reused. */
export function cacheKey() {
  const h = createHash("sha256");
  h.update(JSON.stringify(pin));
  for (const p of PATCHES) h.update(`${p.file}\0${String(p.from)}\0${p.to}\n`);
  h.update(MAKE_ARGS.join(" "));
  return `${pin.version}-${pin.commit.slice(0, 10)}-${h.digest("hex").slice(0, 8)}`;
}

export function cacheDir(env = process.env) {
  return join(cacheRoot(env), cacheKey());
}

/**
 * The interpreter to use: ESPRUINO_BIN when set (it must exist), else the cached build.
 * `{ path, source }` or `{ path: undefined, why }` saying what to run.
 */
export function locate(env = process.env) {
  if (env.ESPRUINO_BIN) {
    if (existsSync(env.ESPRUINO_BIN)) return { path: env.ESPRUINO_BIN, source: "ESPRUINO_BIN" };
    return { path: undefined, why: `ESPRUINO_BIN=${env.ESPRUINO_BIN} does not exist` };
  }
  const bin = join(cacheDir(env), "espruino");
  if (existsSync(bin)) return { path: bin, source: "cache" };
  return {
    path: undefined,
    why: `the Espruino interpreter ${pin.version} is not built here (${bin}): run \`npm run espruino:build\``,
  };
}
