// Flashing a gun over a board's console (a BoardLink from espruino-link.js, Web Serial): what `cng flash` writes, the
// same way a person at the Espruino console would. Gets the console (a gun on its serial link is asked for it with
// the `repl` line first, then one Ctrl-C), checks it is the board the bundle is built for, resets (RAM only: Storage
// stays), erases the over-the-air update files, writes gun.json and the bundle (Storage `.bootcde`) in chunks with
// require("Storage").write(name, data, offset, size), reads both back and compares them byte for byte, and restarts
// the board with load(). Every command goes without echo (DLE, 0x10) and answers on one line of its own.

/** bytes of a file per Storage.write line, and per read-back line (EspruinoTools' file chunk: no flow control needed) */
const WRITE_CHUNK = 384;
const READ_CHUNK = 384;

/** A flash that stopped, and why: "no-answer" | "wrong-board" | "board-error" | "verify" | "link". */
export class FlashFailure extends Error {
  /**
   * @param {string} code
   * @param {string} detail   the board's words, or what was expected
   * @param {boolean} half    Storage was being written: the board holds a half-written gun until it is flashed again
   */
  constructor(code, detail, half = false) {
    super(`${code}: ${detail}`);
    this.code = code;
    this.detail = detail;
    this.half = half;
  }
}

/**
 * A JS string literal for the board's console that reads back as exactly these bytes (latin1, one char a byte):
 * printable ASCII as it is, quotes and backslashes escaped, every other byte as \xNN — so no control byte (Ctrl-C,
 * DLE, Ctrl-D) ever reaches the console raw.
 * @param {string} s
 */
export function consoleString(s) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c >= 0x20 && c < 0x7f) out += s[i];
    else out += `\\x${(c & 0xff).toString(16).padStart(2, "0")}`;
  }
  return `${out}"`;
}

/** The chip family the console reports: its own object (ESP32, ESP8266, NRF), else process.env.BOARD. */
const CHIP_EXPR =
  'typeof ESP32!="undefined"?"ESP32":typeof ESP8266!="undefined"?"ESP8266":typeof NRF!="undefined"?"NRF52":process.env.BOARD';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The board's console over a link: commands that answer `[cng|<n>|<json>]` on a line of their own. */
class Console {
  constructor(link) {
    this.link = link;
    this.rx = "";
    this.n = 0;
    this.closed = false;
    link.onData((d) => {
      this.rx += d;
      if (this.rx.length > 1 << 20) this.rx = this.rx.slice(-(1 << 16));
    });
    link.onClose(() => {
      this.closed = true;
    });
  }

  async send(text) {
    if (this.closed) throw new FlashFailure("link", "the board's port closed");
    await this.link.write(text);
  }

  /**
   * Runs `expr` on the board; resolves with its value (JSON). The marker is put together on the board, so an echo
   * of the line (a console that ignored DLE) never looks like the answer.
   * @param {string} expr
   * @param {number} ms
   */
  async run(expr, ms = 4000) {
    const n = ++this.n;
    const from = this.rx.length;
    const tag = `print("[cng"+"|${n}|"+`;
    await this.send(
      `\x10try{${tag}JSON.stringify(${expr})+"]")}catch(e){${tag}JSON.stringify({cngError:""+e})+"]")}\n`,
    );
    const re = new RegExp(`\\[cng\\|${n}\\|([^\\r\\n]*)\\]\\r?\\n`);
    const end = Date.now() + ms;
    for (;;) {
      const seen = this.rx.slice(from);
      const m = re.exec(seen);
      if (m) {
        const v = m[1] === "undefined" || m[1] === "" ? undefined : JSON.parse(m[1]);
        if (v && typeof v === "object" && typeof v.cngError === "string")
          throw new FlashFailure("board-error", v.cngError);
        return v;
      }
      const bad = /Uncaught[^\r\n]*/.exec(seen);
      if (bad) throw new FlashFailure("board-error", bad[0]);
      if (this.closed) throw new FlashFailure("link", "the board's port closed");
      if (Date.now() > end) throw new FlashFailure("no-answer", `no answer within ${Math.round(ms / 1000)} s`);
      await sleep(10);
    }
  }
}

/**
 * Flashes a board over `link`.
 * @param {import("./espruino-link.js").BoardLink} link
 * @param {{ chip: string, bundle: string, configText: string, erase: string[] }} job
 *   the profile's chip, the bundle and gun.json as latin1 text, the update files to erase
 * @param {(p: { step: "hello" | "write" | "verify" | "done", done: number, total: number }) => void} [onProgress]
 * @returns {Promise<{ version: string, board: string }>}
 */
export async function flashOverLink(link, job, onProgress = () => {}) {
  const con = new Console(link);
  const files = [
    ["gun.json", job.configText],
    [".bootcde", job.bundle],
  ];
  const total = 2 * files.reduce((n, [, text]) => n + text.length, 0);
  let done = 0;
  onProgress({ step: "hello", done: 0, total });
  // a gun on its serial link (hardware/SERIAL.md) gives the console back on this line; a plain console prints a
  // syntax error for it, and the Ctrl-C clears whatever was half typed
  await con.send('\nrepl {"v":1}\n');
  await sleep(300);
  await con.send("\x03");
  await sleep(200);
  let hello;
  try {
    hello = await con.run(`{v:process.env.VERSION,b:process.env.BOARD,c:(${CHIP_EXPR})}`, 3000);
  } catch (e) {
    if (e instanceof FlashFailure && e.code === "link") throw e;
    throw new FlashFailure("no-answer", e instanceof FlashFailure ? e.detail : String(e));
  }
  if (!hello || typeof hello.v !== "string") throw new FlashFailure("no-answer", "not an Espruino console");
  const chip = String(hello.c ?? hello.b ?? "");
  if (chip !== job.chip) throw new FlashFailure("wrong-board", `${hello.b ?? chip} (${chip}), not ${job.chip}`);
  onProgress({ step: "write", done: 0, total });
  // RAM only: the running gun stops, Storage stays
  await con.send("\x10reset()\n");
  await sleep(500);
  let half = false;
  try {
    await con.run("1", 5000);
    // updates over the air ran instead of .bootcde: the bundle flashed now runs, not them
    await con.run(`${JSON.stringify(job.erase)}.map(function(f){return require("Storage").erase(f)})`);
    half = true;
    for (const [name, text] of files) {
      for (let off = 0; off < text.length || off === 0; off += WRITE_CHUNK) {
        const part = text.slice(off, off + WRITE_CHUNK);
        const size = off === 0 ? `,${text.length}` : "";
        const ok = await con.run(
          `require("Storage").write(${JSON.stringify(name)},${consoleString(part)},${off}${size})`,
        );
        if (ok !== true)
          throw new FlashFailure("board-error", `Storage.write ${name} at ${off}: ${JSON.stringify(ok)}`);
        done += part.length;
        onProgress({ step: "write", done, total });
        if (!text.length) break;
      }
    }
    for (const [name, text] of files) {
      for (let off = 0; off < text.length; off += READ_CHUNK) {
        const back = await con.run(`btoa(require("Storage").read(${JSON.stringify(name)},${off},${READ_CHUNK}))`);
        const want = text.slice(off, off + READ_CHUNK);
        let got;
        try {
          got = atob(back);
        } catch {
          got = undefined;
        }
        if (got !== want) throw new FlashFailure("verify", `${name} differs at byte ${off}`);
        done += want.length;
        onProgress({ step: "verify", done, total });
      }
      const after = await con.run(`require("Storage").read(${JSON.stringify(name)},${text.length},1)`);
      if (after) throw new FlashFailure("verify", `${name} is longer than ${text.length} bytes`);
    }
  } catch (e) {
    const f = e instanceof FlashFailure ? e : new FlashFailure("link", String(e?.message ?? e));
    f.half = half;
    throw f;
  }
  await con.send("\x10load()\n");
  await sleep(500);
  onProgress({ step: "done", done: total, total });
  return { version: hello.v, board: String(hello.b ?? "") };
}
