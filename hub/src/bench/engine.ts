// `cng bench engine`: complete random legal games per second on one core, per edition, at 6 players.
import { randomDecision } from "../rules/bot.js";
import { apply } from "../rules/engine.js";
import { Rng } from "../rules/rng.js";
import { newGame } from "../rules/setup.js";
import type { SetupOptions } from "../rules/types.js";
import type { Bench, BenchOptions } from "./index.js";

const PLAYERS = ["P1", "P2", "P3", "P4", "P5", "P6"];

const CASES: { label: string; options: Omit<SetupOptions, "seed"> }[] = [
  { label: "classic", options: { edition: "classic", players: PLAYERS } },
  { label: "classic + powers + cop", options: { edition: "classic", players: PLAYERS, powers: true, cop: true } },
  { label: "second", options: { edition: "second", players: PLAYERS } },
];

/** Plays one random game to the end; returns the number of decisions. */
export function playRandomGame(options: SetupOptions, rng: Rng): number {
  const made = newGame(options);
  if (!made.ok) throw new Error(made.error.message);
  let state = made.state;
  let decisions = 0;
  while (!state.over) {
    const res = apply(state, randomDecision(state, rng)!);
    if (!res.ok) throw new Error(`the random bot made an illegal decision: ${res.error.message}`);
    state = res.state;
    decisions++;
  }
  return decisions;
}

interface Figures {
  games: number;
  /** games per wall-clock second */
  gamesPerSecond: number;
  /** games per second of this process's CPU time: the one-core figure even when the machine is shared */
  gamesPerCpuSecond: number;
  decisionsPerGame: number;
}

function measure(options: Omit<SetupOptions, "seed">, seconds: number): Figures {
  const rng = new Rng(12345);
  // warm the JIT up first so the figure is the steady state
  for (let i = 0; i < 300; i++) playRandomGame({ ...options, seed: i }, rng);
  let games = 0;
  let decisions = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const end = start + seconds * 1000;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 50; i++) decisions += playRandomGame({ ...options, seed: games++ }, rng);
    now = performance.now();
  }
  const elapsed = (now - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    games,
    gamesPerSecond: games / elapsed,
    gamesPerCpuSecond: games / cpuSeconds,
    decisionsPerGame: decisions / games,
  };
}

function fmt(x: number): string {
  return Math.round(x).toLocaleString("en-US").padStart(8);
}

export const engineBench: Bench = {
  name: "engine",
  summary: "rules engine: complete random games per second on one core, per edition, at 6 players",
  async run(opts: BenchOptions): Promise<void> {
    const seconds = opts.seconds ?? 2;
    const results = [];
    for (const c of CASES) {
      const r = measure(c.options, seconds);
      results.push({ case: c.label, players: PLAYERS.length, ...r });
      if (!opts.json)
        process.stdout.write(
          `${c.label.padEnd(24)} ${fmt(r.gamesPerSecond)} games/s wall  ${fmt(r.gamesPerCpuSecond)} games/s CPU  (${r.decisionsPerGame.toFixed(0)} decisions/game, ${r.games} games)\n`,
        );
    }
    if (opts.json) process.stdout.write(`${JSON.stringify(results)}\n`);
    else
      process.stdout.write(
        "target: >= 20,000 classic games/s on one core (the CPU figure counts this process's CPU time only)\n",
      );
  },
};
