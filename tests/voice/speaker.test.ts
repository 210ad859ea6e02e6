// @real-time: the voice keeps the beat of the count
// The table's voice on the hub: every phrase in every language rendered by espeak-ng into audio that is not
// silent and starts at once (the words of a count must start on the beat); a closed grammar of phrase ids, worded
// with the current game's names; served at /api/voice.

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type GameSetup, TABLE_LANGS as LANGS } from "@cng/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHRASE_RE, phraseText, samplePhrases } from "../../hub/src/voice/phrases.js";
import { findEspeak, MAX_WAITING, Speaker, trimWav } from "../../hub/src/voice/speaker.js";
import { connect, request, testHub } from "../fakes/hub.js";

const hasEspeak = findEspeak();
if (!hasEspeak) console.warn("SKIPPED the espeak-ng tests: no espeak-ng (apt-get install espeak-ng)");

/** Samples of a 16-bit mono WAV, and its rate. */
function pcm(wav: Buffer): { rate: number; samples: Int16Array } {
  expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
  expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
  const data = wav.indexOf("data");
  expect(wav.readUInt32LE(data + 4)).toBe(wav.length - data - 8);
  const body = wav.subarray(data + 8);
  return {
    rate: wav.readUInt32LE(24),
    samples: new Int16Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.length)),
  };
}

const rms = (s: Int16Array) => Math.sqrt(s.reduce((a, x) => a + x * x, 0) / Math.max(1, s.length));

const NAMES = ["Ann", "Bob", "Cid", "Dee"];

it("words every phrase of the grammar, and nothing else", () => {
  for (const lang of LANGS)
    for (const id of samplePhrases(4)) expect(phraseText(lang, id, NAMES), `${lang} ${id}`).toBeTruthy();
  expect(phraseText("fr", "one", NAMES)).toBe("Un");
  expect(phraseText("fi", "three", NAMES)).toBe("Kolme!");
  expect(phraseText("en", "split.15000.0.2", NAMES)).toBe("Ann and Cid take $15,000 each.");
  expect(phraseText("fr", "win.1", NAMES)).toBe("Bob gagne !");
  expect(phraseText("fi", "dead.0.1", NAMES)).toBe("Ann ja Bob kuolivat.");
  for (const bad of [
    "hello",
    "wound",
    "wound.7",
    "wound.1.1",
    "split.1500.0",
    "split.20000",
    "one.1",
    "say.Ann",
    "turn.-1",
  ])
    expect(phraseText("en", bad, NAMES), bad).toBeNull();
  expect(PHRASE_RE.test("wound.1.2.3")).toBe(true);
});

describe.skipIf(!hasEspeak)("with espeak-ng", () => {
  it("renders every phrase in every language: audible, and starting at once", async () => {
    const sp = new Speaker();
    expect(sp.engine).toBe("espeak-ng");
    for (const lang of LANGS) {
      for (const id of samplePhrases(4)) {
        const r = await sp.render(lang, id, NAMES);
        if (!r.ok) throw new Error(`${lang} ${id}: ${r.why}`);
        const { rate, samples } = pcm(r.wav);
        expect(samples.length / rate, `${lang} ${id} lasts`).toBeGreaterThan(0.15);
        expect(rms(samples), `${lang} ${id} is audible`).toBeGreaterThan(500);
        // no silence before the word: the first 20 ms already carry sound
        expect(
          Math.max(...samples.slice(0, Math.round(rate * 0.02)).map(Math.abs)),
          `${lang} ${id} starts at once`,
        ).toBeGreaterThan(300);
      }
    }
    // rendered once: the second ask is the same audio
    const a = await sp.render("fr", "one", NAMES);
    const b = await sp.render("fr", "one", NAMES);
    expect(a.ok && b.ok && a.wav === b.wav).toBe(true);
  }, 60_000);

  it('a player\'s name is words, never an option of espeak-ng (a name "-f<file>" would speak the file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), "cng-voice-"));
    const secret = join(dir, "secret.txt");
    writeFileSync(secret, "the host's private words");
    try {
      const sp = new Speaker();
      const names = [`-f${secret}`, `-w${join(dir, "written.wav")}`, "Cid", "Dee"];
      for (const id of ["wound.0", "wound.1"]) {
        const r = await sp.render("en", id, names);
        if (!r.ok) throw new Error(`${id}: ${r.why}`);
        // the sentence was spoken (as the odd name it is), not the file, and nothing was written
        expect(r.text).toContain(names[Number(id.slice(-1))]);
        expect(pcm(r.wav).samples.length / pcm(r.wav).rate).toBeGreaterThan(0.5);
      }
      expect(readdirSync(dir)).toEqual(["secret.txt"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a burst of new phrases waits in a bounded queue: beyond it, busy at once", async () => {
    const sp = new Speaker();
    const names = Array.from({ length: 16 }, (_, i) => `Player${i}`);
    const asks = [];
    for (let n = 0; n < MAX_WAITING + 20; n++) asks.push(sp.render("en", `split.${5000 * (n + 1)}.0`, names));
    const r = await Promise.all(asks);
    expect(r.filter((x) => !x.ok && x.status === 503).length).toBeGreaterThanOrEqual(18);
    expect(r.filter((x) => x.ok).length).toBeGreaterThanOrEqual(MAX_WAITING);
  }, 60_000);

  it("a malformed WAV is refused, not served", () => {
    expect(() => trimWav(Buffer.from("not a wav at all, really not"))).toThrow(/WAV/);
  });
});

describe("/api/voice on the hub", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  beforeAll(async () => {
    hub = await testHub({ voice: "fr" });
  });
  afterAll(() => hub.stop());

  it("says which voice it has, speaks the fixed words, and names the current game's players only", async () => {
    const base = hub.urls.dashboard.replace(/\/$/, "");
    const facts = await (await fetch(`${base}/api/hub`)).json();
    expect(facts.voice.engine).toBe(hasEspeak ? "espeak-ng" : "browser");
    expect(await (await fetch(`${base}/api/voice/fr/three?as=text`)).json()).toEqual({ text: "Trois !" });
    const wav = await fetch(`${base}/api/voice/fr/three`);
    expect(wav.status).toBe(hasEspeak ? 200 : 404);
    if (hasEspeak) expect(wav.headers.get("content-type")).toBe("audio/wav");
    // no game: no names to say
    expect((await fetch(`${base}/api/voice/fr/wound.0?as=text`)).status).toBe(404);
    for (const bad of [
      "/api/voice/xx/one",
      "/api/voice/fr/hello",
      "/api/voice/fr/..%2F..%2Fetc",
      "/api/voice/fr/one.1",
    ])
      expect((await fetch(base + bad)).status, bad).toBe(404);
    // with a game, its players' names
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    const setup: GameSetup = { edition: "classic", players: ["Ann", "Bob", "Cid", "Dee"], seed: 1 };
    expect((await request(host, hub.table, "game.new", setup, hub.pin)).ok).toBe(true);
    expect(await (await fetch(`${base}/api/voice/fr/wound.2?as=text`)).json()).toEqual({ text: "Cid est touché." });
    // --voice fr made French the table's language
    const st = (await request(host, hub.table, "table.status")).r as { lang: string };
    expect(st.lang).toBe("fr");
    host.end(true);
  });
});
