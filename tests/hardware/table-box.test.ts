// @real-time: the table box's cues on johnny-five's real timers
// The table box on johnny-five, tested the way johnny-five tests itself: on mock-firmata.
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cuePattern, FeedbackDispatcher } from "../../hub/src/feedback/index.js";
import {
  followFeedback,
  mirrorGunCues,
  playableHz,
  startTableBox,
  TABLE_BOX_PINS,
} from "../../hub/src/tablebox/index.js";
import { sleep } from "../fakes/hub.js";
import { fakeLog } from "../fakes/log.js";

const require = createRequire(import.meta.url);
const { Firmata } = require("mock-firmata");
const five = require("johnny-five");

/** A mock Arduino Uno that records PWM writes per pin and digital writes. */
function mockUno() {
  const io = new Firmata();
  const pwm: Record<number, number> = {};
  const digital: [number, number][] = [];
  io.analogWrite = (pin: number, v: number) => {
    pwm[pin] = v;
  };
  io.pwmWrite = io.analogWrite;
  io.digitalWrite = (pin: number, v: number) => {
    digital.push([pin, v]);
  };
  return { io, pwm, digital };
}

async function readyBox(opts: { anode?: boolean } = {}) {
  const uno = mockUno();
  const l = fakeLog();
  const box = startTableBox({ io: uno.io, log: l.log, anode: opts.anode });
  uno.io.emit("connect");
  uno.io.emit("ready");
  expect(await box.ready).toBe(true);
  return { box, ...uno, ...l };
}

const { red, green, blue, piezo } = TABLE_BOX_PINS;
const rgb = (pwm: Record<number, number>) => [pwm[red], pwm[green], pwm[blue]];

// The hub's own feedback patterns (hub/src/feedback/cues.ts).
const beat = (at: number) => ({ name: "beat" as const, ...cuePattern("beat"), at });
const go = (at: number) => ({ name: "go" as const, ...cuePattern("go"), at });
const wound = { name: "wound" as const, ...cuePattern("wound") };
/** The notes a pattern's buzzer steps should sound on the box: [Hz, ms], silences left out. */
const notesOf = (b: number[] = []) => {
  const out: { hz: number; ms: number }[] = [];
  for (let i = 0; i < b.length; i += 2) if (b[i] > 0) out.push({ hz: playableHz(b[i]), ms: b[i + 1] });
  return out;
};

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("table box", () => {
  it("plays the count: three beats a second apart, then go, each on its beat", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const notes: { hz: number; ms: number; t: number }[] = [];
    vi.spyOn(five.Piezo.prototype, "frequency").mockImplementation(function (this: unknown, hz: any, ms: any) {
      notes.push({ hz, ms, t: Date.now() });
      return this;
    });
    const { box, pwm } = await readyBox();
    // Each beat arrives ahead of its hub time `at`, like the guns' (a new cue replaces the old, as on a gun).
    const t0 = Date.now() + 500;
    box.play(beat(t0));
    vi.advanceTimersByTime(0);
    expect(notes).toEqual([]);
    vi.advanceTimersByTime(500);
    expect(rgb(pwm)).toEqual([255, 255, 255]);
    vi.advanceTimersByTime(100);
    expect(rgb(pwm)).toEqual([0, 0, 0]);
    box.play(beat(t0 + 1000));
    vi.advanceTimersByTime(1000);
    box.play(beat(t0 + 2000));
    vi.advanceTimersByTime(1000);
    box.play(go(t0 + 3000));
    vi.advanceTimersByTime(1500);
    const [tick] = notesOf(beat(0).b);
    const [three] = notesOf(go(0).b);
    expect(notes).toEqual([
      { ...tick, t: t0 },
      { ...tick, t: t0 + 1000 },
      { ...tick, t: t0 + 2000 },
      { ...three, t: t0 + 3000 },
    ]);
    // "3" is above what Firmata can toggle: played whole octaves lower, still distinct from the ticks
    expect(three.hz).toBeLessThanOrEqual(1000);
    expect(three.ms).toBeGreaterThan(tick.ms);
    expect(rgb(pwm)).toEqual([0, 0, 0]);
    await box.close();
  });

  it("really toggles the piezo pin over Firmata for a note, and leaves it low", async () => {
    const { box, digital } = await readyBox();
    box.play({ name: "beat", b: [500, 100] });
    await sleep(250);
    const onPin = digital.filter(([p]) => p === piezo);
    // 500 Hz for 100 ms is 100 edges on an idle machine; a busy test run gets far fewer
    expect(onPin.length).toBeGreaterThan(2);
    expect(onPin.some(([, v]) => v === 1)).toBe(true);
    expect(onPin.at(-1)).toEqual([piezo, 0]);
    await box.close();
  });

  it("flashes red three times on a wound and ends dark", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(five.Piezo.prototype, "frequency").mockImplementation(function (this: unknown) {
      return this;
    });
    const { box, pwm } = await readyBox();
    const seen: number[][] = [];
    box.play(wound);
    for (let t = 0; t < 800; t += 50) {
      vi.advanceTimersByTime(50);
      const now = rgb(pwm);
      if (JSON.stringify(seen.at(-1)) !== JSON.stringify(now)) seen.push(now);
    }
    expect(seen).toEqual([
      [255, 0, 0],
      [0, 0, 0],
      [255, 0, 0],
      [0, 0, 0],
      [255, 0, 0],
      [0, 0, 0],
    ]);
    await box.close();
  });

  it("drives a common-anode LED inverted (red = red pin low)", async () => {
    const { box, pwm } = await readyBox({ anode: true });
    box.play({ name: "wound", l: [0xff0000, 100] });
    await sleep(20);
    expect(rgb(pwm)).toEqual([0, 255, 255]);
    await box.close();
  });

  it("survives an unplug: says so, keeps taking cues, writes nothing more", async () => {
    const { box, io, pwm, text } = await readyBox();
    box.play({ name: "win", l: [0xffd700, 50] });
    await sleep(10);
    expect(box.connected).toBe(true);
    io.emit("close");
    expect(box.connected).toBe(false);
    expect(text("warn")).toMatch(/table box .*unplugged.*carries on without it/);
    for (const k of Object.keys(pwm)) delete pwm[Number(k)];
    expect(() => box.play(wound)).not.toThrow();
    await sleep(30);
    expect(pwm).toEqual({});
    await box.close();
  });

  it("reports a missing Arduino and lets the hub carry on", async () => {
    const l = fakeLog();
    const box = startTableBox({ port: "/dev/cng-no-such-arduino", log: l.log, retryMs: 0 });
    expect(await box.ready).toBe(false);
    expect(box.connected).toBe(false);
    expect(l.text("warn")).toMatch(/cng-no-such-arduino.*is the Arduino plugged in\?.*carries on without it/s);
    box.play(wound);
    await box.close();
  });

  it("reports an Arduino that does not answer as Firmata, and tries again", async () => {
    const { SerialPortMock } = await import("serialport");
    SerialPortMock.binding.reset();
    SerialPortMock.binding.createPort("/dev/ttyACM-mute", { echo: false, record: true });
    const l = fakeLog();
    const box = startTableBox({
      port: "/dev/ttyACM-mute",
      log: l.log,
      readyTimeoutMs: 100,
      retryMs: 50,
      openPort: (path, baudRate) => new SerialPortMock({ path, baudRate, autoOpen: false }),
    });
    expect(await box.ready).toBe(false);
    expect(l.text("warn")).toMatch(/no Firmata answer on \/dev\/ttyACM-mute: upload StandardFirmata/);
    // it reopens the port: the second failure is logged quietly
    await sleep(400);
    expect(l.said.filter((s) => s.level === "debug" && /ttyACM-mute/.test(s.msg)).length).toBeGreaterThan(0);
    expect(l.said.filter((s) => s.level === "warn")).toHaveLength(1);
    await box.close();
  });

  it("plays high notes whole octaves lower, keeps low ones", () => {
    expect(playableHz(2400)).toBe(600);
    expect(playableHz(1760)).toBe(880);
    expect(playableHz(440)).toBe(440);
  });

  it("follows the feedback dispatcher: the count, a wound and the win; not one player's aiming cues", () => {
    const played: string[] = [];
    const d = new FeedbackDispatcher();
    d.subscribe(followFeedback({ play: (c) => played.push(`${c.c}@${c.at ?? "now"}`) }));
    d.cue("all", "beat", { at: 1000 });
    d.cue("all", "go", { at: 3000 });
    d.cue(2, "lock", { colour: 0x00ff00 });
    d.cue(2, "wound");
    d.cue(4, "wound");
    d.cue(1, "win", { colour: 0x0000ff });
    expect(played).toEqual(["beat@1000", "go@3000", "wound@now", "win@now"]);
  });

  it("mirrors the guns' cues: a beat sent to eight guns plays once; per-gun cues are left out", () => {
    const played: string[] = [];
    const on = mirrorGunCues({ play: (c) => played.push(`${c.c}@${c.at ?? "now"}`) });
    const send = (c: object) => on("cng/v1/t/gun/g/cue", JSON.stringify({ v: 1, n: 1, ...c }));
    for (let g = 0; g < 8; g++) send({ c: "beat", at: 1000, l: [0xffffff, 80], b: [880, 80] });
    for (let g = 0; g < 8; g++) send({ c: "beat", at: 2000, l: [0xffffff, 80], b: [880, 80] });
    send({ c: "lock", l: [0x00ff00, 80] });
    send({ c: "wound", l: [0xff0000, 150] });
    on("cng/v1/t/gun/g/cue", "not json");
    expect(played).toEqual(["beat@1000", "beat@2000", "wound@now"]);
  });
});
