// The table's voice rendered on the hub with espeak-ng (Debian's package: it speaks English, French and Finnish) into
// WAV audio the dashboard schedules on the beat. Each phrase is rendered once and kept (a small cache); the silence
// espeak-ng puts before a word is cut, so a word starts when it is scheduled. Without espeak-ng the dashboard
// speaks the same sentences with the browser's own voice (`text`), on a best-effort beat.
import { spawn, spawnSync } from "node:child_process";
import type { Lang } from "../store/settings.js";
import { phraseText, VOICES } from "./phrases.js";

export type VoiceEngine = "espeak-ng" | "browser" | "off";

export interface VoiceOptions {
  /** "off": no voice at all; otherwise espeak-ng when installed, else the browser's */
  off?: boolean;
  /** the espeak-ng binary (default: found on PATH) */
  bin?: string;
}

export type Rendered = { ok: true; wav: Buffer; text: string } | { ok: false; status: number; why: string };

/** How many phrases are kept rendered; a game needs a few dozen. */
const CACHE = 400;
/** espeak-ng processes at once: a burst of requests queues rather than loads the laptop */
const PARALLEL = 2;
/** renders waiting at most; beyond, "busy" at once: /api/voice is open to the table's phones, and so to a flood */
export const MAX_WAITING = 32;

export function findEspeak(bin = "espeak-ng"): boolean {
  return spawnSync(bin, ["--version"], { stdio: "ignore" }).status === 0;
}

export class Speaker {
  readonly engine: VoiceEngine;
  private readonly bin: string;
  private readonly cache = new Map<string, Promise<Rendered>>();
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(o: VoiceOptions = {}) {
    this.bin = o.bin ?? "espeak-ng";
    this.engine = o.off ? "off" : findEspeak(this.bin) ? "espeak-ng" : "browser";
  }

  /** The words of phrase `id` in `lang` with the game's `names`; null when there is no such phrase. */
  text(lang: Lang, id: string, names: readonly string[]): string | null {
    return phraseText(lang, id, names);
  }

  /** The phrase as WAV audio (mono 16-bit), rendered once per wording. */
  render(lang: Lang, id: string, names: readonly string[]): Promise<Rendered> {
    if (this.engine !== "espeak-ng") {
      return Promise.resolve({ ok: false, status: 404, why: `no voice on the hub (${this.engine})` });
    }
    const text = phraseText(lang, id, names);
    if (text === null) return Promise.resolve({ ok: false, status: 404, why: `no phrase ${id}` });
    const key = `${lang}\u0000${text}`;
    const hit = this.cache.get(key);
    if (hit) {
      // most recently used last: the oldest goes first when the cache is full
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    if (this.queue.length >= MAX_WAITING) return Promise.resolve({ ok: false, status: 503, why: "the voice is busy" });
    const p = this.slot(() => espeak(this.bin, VOICES[lang], text)).then(
      (wav): Rendered => ({ ok: true, wav, text }),
      (e): Rendered => ({ ok: false, status: 500, why: (e as Error).message }),
    );
    this.cache.set(key, p);
    if (this.cache.size > CACHE) this.cache.delete(this.cache.keys().next().value!);
    return p;
  }

  private slot<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const go = () => {
        this.running++;
        fn()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.queue.shift()?.();
          });
      };
      if (this.running < PARALLEL) go();
      else this.queue.push(go);
    });
  }
}

function espeak(bin: string, voice: string, text: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // "--": the text holds players' names, and a name such as "-f/path" would otherwise be an option (speak a file)
    const p = spawn(bin, ["-v", voice, "-s", "165", "--stdout", "--", text], { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    p.stdout.on("data", (d: Buffer) => out.push(d));
    p.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    const t = setTimeout(() => p.kill("SIGKILL"), 10_000);
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(t);
      if (code !== 0) return reject(new Error(`espeak-ng exited ${code}: ${err.trim().slice(0, 200)}`));
      try {
        resolve(trimWav(Buffer.concat(out)));
      } catch (e) {
        reject(e);
      }
    });
  });
}

/**
 * espeak-ng's WAV on stdout: it cannot know the length when it writes the header, so the sizes are placeholders.
 * Set them, and cut the silence before the first word (a word scheduled on a beat must start on it).
 */
export function trimWav(wav: Buffer): Buffer {
  if (wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") throw new Error("not a WAV");
  let at = 12;
  let fmt: { channels: number; bits: number; rate: number } | null = null;
  while (at + 8 <= wav.length) {
    const id = wav.toString("ascii", at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === "fmt ")
      fmt = { channels: wav.readUInt16LE(at + 10), rate: wav.readUInt32LE(at + 12), bits: wav.readUInt16LE(at + 22) };
    if (id === "data") {
      if (fmt?.bits !== 16) throw new Error("espeak-ng gave no 16-bit PCM");
      const start = at + 8;
      const frame = 2 * fmt.channels;
      let first = start;
      while (first + 1 < wav.length && Math.abs(wav.readInt16LE(first)) < 300) first += frame;
      // keep 5 ms before the first sound, so its attack is not clipped
      const keep = Math.max(start, first - Math.round(0.005 * fmt.rate) * frame);
      const data = wav.subarray(keep, wav.length - ((wav.length - keep) % frame));
      const head = Buffer.from(wav.subarray(0, start));
      head.writeUInt32LE(head.length - 8 + data.length, 4);
      head.writeUInt32LE(data.length, start - 4);
      return Buffer.concat([head, data]);
    }
    // a real size, or the placeholder of a header written before its length was known
    if (size > wav.length) break;
    at += 8 + size + (size % 2);
  }
  throw new Error("no audio in espeak-ng's output");
}
