import { PEOPLE_SETS } from "../sim/human.js";
import { WEATHER_NAMES } from "../sim/weather/profiles.js";
import { FLOODS } from "./flood-kinds.js";

/** One benchmark: `cng bench <name>` runs it and prints its figures. */
export interface Bench {
  name: string;
  /** one line for `cng bench --help` */
  summary: string;
  /** runs the benchmark, printing figures as it goes; resolves when done */
  run(opts: BenchOptions): Promise<void>;
}

export interface BenchOptions {
  /** how long to measure, seconds (each bench picks its own default when absent) */
  seconds?: number;
  /** print machine-readable JSON instead of a table */
  json: boolean;
  /** the bench's own flags (its `flags` below), by name; absent = the bench's default */
  flags?: Record<string, number | undefined>;
  /** its list flags (a `choices` flag), by name */
  lists?: Record<string, string[] | undefined>;
}

/** A bench's own option: `--NAME <n>`, a positive whole number; or with `choices`, a comma-separated list of them. */
export interface BenchFlag {
  name: string;
  description: string;
  choices?: readonly string[];
  /** 0 is allowed too */
  zero?: boolean;
}

/** Every benchmark, each in its own module beside this one. Loaded lazily: a bench pulls in heavy code. */
export const benches: { name: string; summary: string; flags?: BenchFlag[]; load: () => Promise<Bench> }[] = [
  {
    name: "engine",
    summary: "rules engine: complete random games per second, per edition, at 6 players",
    load: async () => (await import("./engine.js")).engineBench,
  },
  {
    name: "accuracy",
    summary: "hold-up target accuracy: % correct / re-aim / wrong on 4–8 seat tables, σ 1–5°, vs plain nearest-seat",
    flags: [
      {
        name: "games",
        description:
          "instead, this many whole games per row on the real firmware: 8 players, no pose, σ 3° and 5°, clean and party WiFi",
      },
      { name: "workers", description: "with --games: games played side by side (default 2)" },
      {
        name: "espruino",
        description:
          "with --games: games on the real interpreter, σ 5° in party weather, in real time (default 1; 0: none)",
        zero: true,
      },
      { name: "holdups", description: "hold-ups per row at 8 seats (default 96,000)" },
      {
        name: "people",
        description: "only the rows of these people (docs/human-model.md; default all)",
        choices: PEOPLE_SETS,
      },
    ],
    load: async () => (await import("./accuracy.js")).accuracy,
  },
  {
    name: "firmware",
    summary: "firmware bundle bytes vs budget per board, IMU filter cost per sample in the virtual board",
    load: async () => (await import("./firmware.js")).firmwareBench,
  },
  {
    name: "battery",
    summary: "battery charge reported across a 4.2–3.0 V discharge per board, before vs now, ESP32 Vref spread",
    load: async () => (await import("./battery.js")).batteryBench,
  },
  {
    name: "mount",
    summary: "aim error by IMU mounting on the real interpreter: as designed vs upside down vs sideways",
    load: async () => (await import("./mount.js")).mountBench,
  },
  {
    name: "ota",
    summary:
      "bytes each firmware feature adds per board; time to update 8 guns on the real interpreter over the loopback",
    load: async () => (await import("./ota.js")).otaBench,
  },
  {
    name: "latency",
    summary:
      "trigger → cue round trip with 8 and 100 guns streaming aim at 50 Hz, hub vs bare broker (aedes, mosquitto)",
    load: async () => (await import("./latency.js")).latencyBench,
  },
  {
    name: "aim",
    summary: "highest aim rate ingested with no loss and p99 ≤ 10 ms, hub vs bare broker (aedes, mosquitto)",
    load: async () => (await import("./aim.js")).aimBench,
  },
  {
    name: "weather",
    summary:
      "whole games behind a WiFi relay (home, party, modem sleep at DTIM 1 and 3, drop-outs), 6 and 8 players, " +
      "many seeds: aims right / too slow when in time / wrong, courage misread, beat spread across guns, " +
      "trigger → cue, game length",
    flags: [
      { name: "seeds", description: "games per row (default 10)" },
      { name: "players", description: "only tables of this many players (default: 6 and 8)" },
      { name: "workers", description: "games played side by side (default 2)" },
      {
        name: "espruino",
        description: "games on the real interpreter in party weather, in real time (default 2; 0: none)",
        zero: true,
      },
      {
        name: "weather",
        description: "the weathers to play, comma-separated (default all)",
        choices: WEATHER_NAMES,
      },
    ],
    load: async () => (await import("./weather.js")).weatherBench,
  },
  {
    name: "guessing",
    summary:
      "PIN guessing from 1, 300 and 20,000 loopback addresses at a real hub: guesses checked a minute, held back; " +
      "the host logging in with its device's token meanwhile",
    flags: [{ name: "addresses", description: "only this many addresses (default: rows of 1, 300 and 20,000)" }],
    load: async () => (await import("./guess/bench.js")).guessingBench,
  },
  {
    name: "flood",
    summary:
      "each flood a player on the WiFi can send (taken ids, unfinished packets, connections, subscriptions, requests, " +
      "PIN guesses, pairing asks, voice) against a hub process during games: the host's answers and logins, the " +
      "hub's memory, every game's log replayed",
    flags: [{ name: "floods", description: "the floods to send, comma-separated (default all)", choices: FLOODS }],
    load: async () => (await import("./flood.js")).floodBench,
  },
  {
    name: "venue",
    summary:
      "N tables on one mosquitto (dynamic security), each a cng hub process with load guns: trigger → cue p99, " +
      "aim samples lost, mosquitto CPU and hub memory, N raised until p99 > 1.5× one table's or a sample is lost",
    flags: [
      { name: "max", description: "the largest N to try (default 16)" },
      { name: "guns", description: "load guns per table (default 8, at most 8)" },
      { name: "hz", description: "aim samples a second per gun (default 50)" },
    ],
    load: async () => (await import("./venue.js")).venueBench,
  },
];
