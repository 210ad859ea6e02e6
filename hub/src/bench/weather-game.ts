// One whole simulated game in a WiFi weather, measured: the hub on its embedded broker, virtual guns running the real
// firmware behind the weather relay, bots at the table. What the table made of the players' gestures (verdicts.ts),
// how far apart the guns played each beat, how long a pull took to light its gun, how long the game took.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cuePattern } from "../feedback/index.js";
import { DrivenTime } from "../sim/driven-time.js";
import type { GunRuntime } from "../sim/espruino/index.js";
import type { Fleet, SimGun } from "../sim/fleet.js";
import { PEOPLE, type People } from "../sim/human.js";
import type { TableState } from "../sim/table-view.js";
import { type WeatherName, weatherNamed } from "../sim/weather/profiles.js";
import type { Recentre } from "../table/recentre.js";
import { runDemo, type Speed } from "./demo-game.js";
import { gameLog, type Verdicts, verdicts } from "./verdicts.js";

export interface WeatherGameOptions {
  weather: WeatherName;
  players: number;
  seed: number;
  speed?: Speed;
  /** vm guns on time the bench drives (default), or the real interpreter in real time */
  runtime?: GunRuntime;
  /** pulls per gun before the game, each timed to its gun's light */
  probes?: number;
  /** the guns' board profile (default: MPU-6050 and BNO085 boards in turn) */
  board?: string;
  /** white noise σ on each BNO085 gun's reported yaw, degrees */
  yawNoise?: number;
  /** the table's re-centre (default: the pose for a gun in doubt) */
  recentre?: Recentre;
  /** who plays (sim/human.ts; default the simulator's own, `ours`) */
  people?: People;
  /** the people who watch their gun's colour react to it (default true) */
  feedback?: boolean;
  /** each chip's heading error beyond its model's noise */
  imuErrors?: boolean;
}

export interface WeatherGameFigures {
  verdicts: Verdicts;
  /** per beat of a count played by ≥ 2 guns: latest − earliest played time, ms */
  spreads: number[];
  /** per gun and beat: played − the hub's time, ms */
  offsets: number[];
  /** beats a gun in the count never played (a cue that came too late is dropped) */
  beatsMissed: number;
  beats: number;
  /** a pull with no game on: press → its gun lit, ms */
  trigToCue: number[];
  /** the game's length, hub ms */
  gameMs: number;
  /** one-way delays the relay gave the guns' segments, ms */
  up: number[];
  down: number[];
  dropouts: number;
  reconnects: number;
}

interface Beat {
  at: number;
  hz: number;
  /** the count's pace: a beat is looked for within half of it, so a dropped one is not mistaken for the next */
  paceMs: number;
  seats: number[];
}

const BEAT_HZ = cuePattern("beat").b![0]!;
const GO_HZ = cuePattern("go").b![0]!;
const IDENT_HZ = cuePattern("ident").b![0]!;
const AMBIG_HZ = cuePattern("ambig").b![0]!;
/** an `ambig` cue beeps thrice within this */
const AMBIG_MS = 800;

/** The `ambig` cues (re-aim) the guns played from hub ms `since` (the game's first count): each one's first beep. */
export function reaimsPlayed(guns: readonly SimGun[], since: number): number {
  let n = 0;
  for (const g of guns) {
    let last = Number.NEGATIVE_INFINITY;
    const toHub = g.hand.hubMs(0);
    for (const e of g.gun.tones)
      if (e.f === AMBIG_HZ && e.t + toHub >= since) {
        if (e.t - last > AMBIG_MS) n++;
        last = e.t;
      }
  }
  return n;
}

/** The beats each count asked for, from the table's state: "1" and "2" at 880 Hz, "3" at 1760. */
function beatsOf(states: TableState[]): Beat[] {
  const seen = new Map<number, Beat[]>();
  for (const s of states) {
    const a = s.table?.activity;
    if (a?.kind !== "count" || a.goAt === null || seen.has(a.goAt)) continue;
    const p = a.paceMs;
    seen.set(a.goAt, [
      { at: a.goAt - 2 * p, hz: BEAT_HZ, paceMs: p, seats: a.seats },
      { at: a.goAt - p, hz: BEAT_HZ, paceMs: p, seats: a.seats },
      { at: a.goAt, hz: GO_HZ, paceMs: p, seats: a.seats },
    ]);
  }
  return [...seen.values()].flat();
}

/** How the guns played each count's beats: spread across guns, each gun's offset from the hub's time, misses. */
export function beatFigures(
  states: TableState[],
  guns: readonly SimGun[],
): { spreads: number[]; offsets: number[]; beatsMissed: number; beats: number } {
  const spreads: number[] = [];
  const offsets: number[] = [];
  let beatsMissed = 0;
  let beats = 0;
  for (const b of beatsOf(states)) {
    const times: number[] = [];
    for (const seat of b.seats) {
      const g = guns[seat];
      if (!g) continue;
      beats++;
      const t = played(g, b.hz, b.at, b.paceMs / 2);
      if (t === null) beatsMissed++;
      else {
        times.push(t);
        offsets.push(t - b.at);
      }
    }
    if (times.length >= 2) spreads.push(Math.max(...times) - Math.min(...times));
  }
  return { spreads, offsets, beatsMissed, beats };
}

/** When the gun started playing `hz` within `withinMs` of `at` (hub ms), or null. */
function played(g: SimGun, hz: number, at: number, withinMs: number): number | null {
  const toHub = g.hand.hubMs(0);
  for (const e of g.gun.tones) {
    const t = e.t + toHub;
    if (e.f === hz && Math.abs(t - at) <= withinMs) return t;
  }
  return null;
}

/** Each gun pulls `n` times, one gun after another; each pull's light (the hub's `ident` cue), timed. */
async function probeTriggers(fleet: Fleet, n: number, out: number[]): Promise<void> {
  const clock = fleet.clock;
  const wait = (ms: number) => new Promise<void>((r) => clock.setTimer(ms, r));
  // the calibration's last pulls are still being released
  await wait(1000);
  for (let i = 0; i < n; i++)
    for (const g of fleet.guns) {
      const tones = g.gun.tones.length;
      const pressAt = clock.now() + 50;
      await g.hand.pull(50);
      // the ident cue's beep (the LED may already show the seat colour); the blink lasts 3 s
      const lit = await new Promise<number | null>((resolve) => {
        const end = clock.now() + 2000;
        const look = () => {
          const e = g.gun.tones.slice(tones).find((x) => x.f === IDENT_HZ);
          if (e) resolve(e.t + g.hand.hubMs(0));
          else if (clock.now() > end) resolve(null);
          else clock.setTimer(5, look);
        };
        look();
      });
      if (lit !== null) out.push(lit - pressAt);
      await wait(3200);
    }
}

export async function weatherGame(o: WeatherGameOptions): Promise<WeatherGameFigures> {
  const data = mkdtempSync(join(tmpdir(), "cng-weather-"));
  const states: TableState[] = [];
  const trigToCue: number[] = [];
  let fleetRef: Fleet | undefined;
  const driven = o.runtime === "espruino" ? null : new DrivenTime();
  try {
    const game = runDemo({
      // the classic edition seats 4-6
      edition: o.players > 6 ? "second" : "classic",
      players: o.players,
      seed: o.seed,
      speed: o.speed ?? "normal",
      weather: weatherNamed(o.weather),
      runtime: o.runtime ?? "vm",
      ...(o.board ? { board: o.board } : {}),
      ...(o.yawNoise ? { yawNoise: o.yawNoise } : {}),
      ...(o.recentre ? { recentre: o.recentre } : {}),
      ...(o.people ? { traits: PEOPLE[o.people] } : {}),
      ...(o.feedback === false ? { feedback: false } : {}),
      ...(o.imuErrors ? { imuErrors: true } : {}),
      hub: { mqttPort: 0, httpPort: 0, bind: "127.0.0.1", data, voice: "off", discovery: "off" },
      ...(driven ? { clock: driven.clock } : {}),
      onState: (s) => states.push(s),
      beforeGame: async (fleet) => {
        fleetRef = fleet;
        await probeTriggers(fleet, o.probes ?? 2, trigToCue);
      },
    });
    const r = driven ? await driven.run(game, 3_600_000, "the game") : await game;
    const fleet = fleetRef!;
    const log = gameLog(data);
    const beats = beatFigures(states, fleet.guns);
    const guns = (r.weather ?? []).filter((s) => fleet.guns.some((g) => g.id === s.name));
    const up: number[] = [];
    const down: number[] = [];
    for (const s of guns) {
      for (const x of s.delays.up) up.push(x);
      for (const x of s.delays.down) down.push(x);
    }
    return {
      verdicts: {
        ...verdicts(log.records, r.players),
        reaims: reaimsPlayed(fleet.guns, (beatsOf(states)[0]?.at ?? Number.POSITIVE_INFINITY) - 100),
      },
      ...beats,
      trigToCue,
      gameMs: r.ms,
      up,
      down,
      dropouts: guns.reduce((n, s) => n + s.dropouts, 0),
      reconnects: guns.reduce((n, s) => n + s.disassociations, 0),
    };
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}
