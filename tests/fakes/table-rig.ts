// A table on a manual clock, played by scripted guns: each gun streams aim samples in its own clock, with its
// own latency, and its player follows a scenario (aims at the count, lowers the gun at the courage count,
// pulls in the reveal window). Scenarios come from seeded random bot games, so nothing here is hard-coded.
import type { CueName } from "@cng/protocol";
import { aimOptions, type Bearings, bearings, roundTable, type SeatLayout } from "../../hub/src/aim/index.js";
import type { CueOptions, CueTarget } from "../../hub/src/feedback/index.js";
import { rulesEngine } from "../../hub/src/game/engine.js";
import {
  apply,
  type BotStyle,
  BULLET_INDEX,
  type Bullet,
  type Decision,
  type Edition,
  type GameEvent,
  newGame,
  Rng,
  randomDecision,
  type State,
} from "../../hub/src/rules/index.js";
import {
  type AimInput,
  FAST_TIMING,
  ManualClock,
  type SecretSource,
  Table,
  type TableRecord,
  type TableTiming,
  type TriggerInput,
} from "../../hub/src/table/index.js";

export interface ScenarioRound {
  bullets: Record<string, Bullet>;
  aims: Record<string, string | null>;
  lieDown: string[];
  privilege?: { player: string; aim: string | null };
  picks: [string, string, string?][];
  phone: string[];
}

export interface Scenario {
  edition: Edition;
  players: string[];
  seed: number;
  options?: { cop?: boolean };
  rounds: ScenarioRound[];
}

const NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"];

function permissive(hand: readonly number[]): Bullet {
  return hand[BULLET_INDEX.click]! > 0 ? "click" : hand[BULLET_INDEX.bang]! > 0 ? "bang" : "bbb";
}

/**
 * A whole random bot game as a scenario. `physical`: a card discarded unrevealed is replaced by the one the
 * table would hand the engine (it never sees it), so the scenario holds exactly what a physical table knows.
 */
export function randomScenario(
  edition: Edition,
  players: number,
  seed: number,
  opts: { physical?: boolean; style?: Partial<BotStyle>; cop?: boolean } = {},
): Scenario {
  const names = NAMES.slice(0, players);
  const made = newGame({ edition, players: names, seed, cop: opts.cop === true });
  if (!made.ok) throw new Error(made.error.message);
  const style: BotStyle = { lieDown: 0.2, aimNobody: 0.1, reveal: 0, ...opts.style };
  const rng = new Rng(seed * 7 + 1);
  const rounds: ScenarioRound[] = [];
  let state: State = made.state;
  while (!state.over) {
    const start = state;
    const decisions: Decision[] = [];
    const events: GameEvent[] = [];
    while (!state.over && state.round === start.round) {
      const d = randomDecision(state, rng, style)!;
      const r = apply(state, d);
      if (!r.ok) throw new Error(r.error.message);
      decisions.push(d);
      events.push(...r.events);
      state = r.state;
    }
    if (opts.physical) {
      const shown = new Set(events.flatMap((e) => (e.type === "shot" ? [e.seat] : [])));
      let changed = false;
      for (const d of decisions) {
        if (d.type !== "bullet" || shown.has(d.seat)) continue;
        const card = permissive(start.players[d.seat]!.hand);
        if (card !== d.card) {
          d.card = card;
          changed = true;
        }
      }
      if (changed) {
        state = start;
        for (const d of decisions) {
          const r = apply(state, d);
          if (!r.ok) throw new Error(`replaying with the table's cards: ${r.error.message}`);
          state = r.state;
        }
      }
    }
    rounds.push(toRound(start, decisions, names));
  }
  const out: Scenario = { edition, players: names, seed, rounds };
  if (opts.cop) out.options = { cop: true };
  return out;
}

function toRound(start: State, decisions: Decision[], names: string[]): ScenarioRound {
  const round: ScenarioRound = { bullets: {}, aims: {}, lieDown: [], picks: [], phone: [] };
  let s = start;
  for (const d of decisions) {
    const name = names[d.seat]!;
    if (d.type === "bullet") round.bullets[name] = d.card;
    else if (d.type === "aim") {
      const target = d.target === null ? null : names[d.target]!;
      if (s.step === "reaim") round.privilege!.aim = target;
      else round.aims[name] = target;
    } else if (d.type === "privilege" && d.order !== null) round.privilege = { player: names[d.order]!, aim: null };
    else if (d.type === "courage" && d.lieDown) round.lieDown.push(name);
    else if (d.type === "pick") round.picks.push(d.discard ? [name, d.card, d.discard] : [name, d.card]);
    else if (d.type === "phone" && d.flip) round.phone.push(name);
    const r = apply(s, d);
    if (r.ok) s = r.state;
  }
  return round;
}

type Pose = { kind: "aim"; target: number } | { kind: "away" } | { kind: "lowered" };

export interface SentCue {
  at: number;
  to: CueTarget;
  name: CueName;
  opts?: CueOptions;
}

export interface RigOptions {
  secrets: "physical" | "console";
  timing?: Partial<TableTiming>;
  /** seats whose guns go silent (and offline) from `from` for `ms` */
  drop?: { seat: number; round: number; during: "aim" | "courage"; ms: number };
  /**
   * a seat's stream held by the network from `beforeGoMs` before the count's "3" for `ms` (online all the while),
   * then delivered at once, in order: a stall on the WiFi. `times`: that many counts of the round (default 1)
   */
  stall?: { seat: number; round: number; during: "aim" | "courage"; beforeGoMs: number; ms: number; times?: number };
  /** the same in a reveal window: the seat's stream (its pulls with it) held from `beforeCloseMs` before the close */
  revealStall?: { seat: number; round: number; beforeCloseMs: number; ms: number };
  /** a player who moves only this long after "3" (really too slow) */
  late?: { seat: number; round: number; ms: number };
  records?: TableRecord[];
  state?: State;
  /** extra pulls: seat pulls in every bang window whatever its card (to test refusals) */
  stubbornPuller?: number;
}

/** The table and its scripted players. */
export class Rig {
  readonly clock = new ManualClock();
  readonly table: Table;
  readonly layout: SeatLayout;
  readonly records: TableRecord[];
  readonly decisions: Decision[] = [];
  readonly cues: SentCue[] = [];
  readonly names: string[];
  private readonly poses: Pose[];
  private readonly online: boolean[];
  private readonly trigN: number[];
  private readonly acted = new Set<string>();
  private pickAt = new Map<number, number>();
  private dropUntil = -1;
  /** the stall now: until when a seat's samples are held, and the held ones */
  private stalled: { seat: number; until: number; held: (AimInput | TriggerInput)[] } | null = null;
  private stalls = 0;
  /** hub ms the late player moves at */
  private lateAt = -1;
  /** degrees added to a seat's aim, or "between": halfway to the next target clockwise (a hand between two) */
  readonly skew = new Map<number, number | "between">();
  /** where each seat's gun points to aim at each seat: from the gun, before the seat (the table's own geometry) */
  private readonly rows: Bearings;

  constructor(
    readonly scenario: Scenario,
    readonly opts: RigOptions,
  ) {
    this.names = scenario.players;
    const n = this.names.length;
    this.layout = roundTable(n);
    this.rows = bearings(this.layout, aimOptions().gunForwardM);
    this.poses = this.names.map(() => ({ kind: "away" }));
    this.online = this.names.map(() => true);
    this.trigN = this.names.map(() => 0);
    this.records = opts.records ?? [];
    let state = opts.state;
    if (!state) {
      const made = newGame({
        edition: scenario.edition,
        players: this.names,
        seed: scenario.seed,
        cop: scenario.options?.cop === true,
      });
      if (!made.ok) throw new Error(made.error.message);
      state = made.state;
    }
    const config = {
      layout: this.layout,
      secrets: this.names.map((): SecretSource => ({ kind: opts.secrets })),
      timing: { ...FAST_TIMING, ...opts.timing },
    };
    let current = state;
    const ports = {
      clock: this.clock,
      decide: (d: Decision) => {
        const r = rulesEngine.apply(current, d);
        if (r.ok) {
          current = r.value.state;
          this.decisions.push(d);
        }
        return r;
      },
      record: (r: TableRecord) => this.records.push(r),
      cue: (to: CueTarget, name: CueName, o?: CueOptions) => {
        const c: SentCue = { at: this.clock.now(), to, name };
        if (o) c.opts = o;
        this.cues.push(c);
      },
    };
    this.table = opts.records ? Table.resume(config, ports, state, opts.records) : new Table(config, ports, state);
  }

  /** hub − gun for a seat: every gun has its own boot time */
  gunDelta(seat: number): number {
    return 1_699_000_000_000 + seat * 7919;
  }

  private latency(seat: number): number {
    return 8 + ((seat * 13) % 25);
  }

  gunNow(seat: number): number {
    return this.clock.now() - this.gunDelta(seat);
  }

  pull(seat: number, k: "p" | "2" = "p"): void {
    const e: TriggerInput = { n: ++this.trigN[seat]!, k, t: this.gunNow(seat) };
    // on one connection with the aim: a stall holds it too
    if (this.stalled?.seat === seat) this.stalled.held.push(e);
    else this.table.trigger(seat, e);
  }

  private round(): ScenarioRound | undefined {
    return this.scenario.rounds[this.table.state.round - 1];
  }

  private seatOf(name: string | null | undefined): number | null {
    return name === null || name === undefined ? null : this.names.indexOf(name);
  }

  private aimPose(target: number | null): Pose {
    return target === null ? { kind: "away" } : { kind: "aim", target };
  }

  /** The players look at the table and act. */
  private act(): void {
    const st = this.table.status;
    const round = this.round();
    if (!round) return;
    const name = (s: number) => this.names[s]!;
    const once = (key: string) => {
      const k = `${st.round}:${key}`;
      if (this.acted.has(k)) return false;
      this.acted.add(k);
      return true;
    };
    for (const w of st.waiting) {
      if (w.for === "secret") {
        const r = this.table.secret(w.seat, round.bullets[name(w.seat)]!);
        if (!r.ok) throw new Error(r.error);
      } else if (w.for === "start") this.table.startRound();
      else if (w.for === "gun")
        continue; // a restarted table waits for a gun: the test brings it back
      else if (w.decision === "pick") {
        const i = this.pickAt.get(st.round) ?? 0;
        const p = round.picks[i]!;
        this.pickAt.set(st.round, i + 1);
        const d: Decision = { type: "pick", seat: this.seatOf(p[0])!, card: p[1] as "painting" };
        if (p[2]) d.discard = p[2] as Bullet;
        const r = this.table.hostDecide(d);
        if (!r.ok) throw new Error(r.error);
      }
    }
    const a = st.activity;
    if (a === null) return;
    if (a.kind === "count") {
      for (const seat of a.seats) {
        if (a.purpose === "aim") this.poses[seat] = this.aimPose(this.seatOf(round.aims[name(seat)]));
        else if (a.purpose === "reaim") this.poses[seat] = this.aimPose(this.seatOf(round.privilege?.aim));
        else if (round.lieDown.includes(name(seat))) this.poses[seat] = { kind: "lowered" };
      }
      const sl = this.opts.stall;
      if (
        sl &&
        sl.round === st.round &&
        sl.during === a.purpose &&
        a.goAt !== null &&
        a.seats.includes(sl.seat) &&
        this.stalls < (sl.times ?? 1) &&
        once(`stall:${a.goAt}`)
      ) {
        this.stalls++;
        const from = a.goAt - sl.beforeGoMs;
        this.clock.setTimer(from - this.clock.now(), () => {
          this.stalled = { seat: sl.seat, until: from + sl.ms, held: [] };
        });
      }
      const lt = this.opts.late;
      if (lt && lt.round === st.round && a.purpose === "aim" && a.goAt !== null && once("late")) {
        this.lateAt = a.goAt + lt.ms;
        this.poses[lt.seat] = { kind: "away" };
      }
      if (lt && this.lateAt >= 0 && this.clock.now() < this.lateAt) this.poses[lt.seat] = { kind: "away" };
      const d = this.opts.drop;
      if (d && d.round === st.round && d.during === a.purpose && a.goAt !== null && once("drop")) {
        this.online[d.seat] = false;
        this.dropUntil = this.clock.now() + d.ms;
        this.table.presence(d.seat, false);
      }
    } else if (a.kind === "privilege") {
      const order = this.seatOf(round.privilege?.player);
      if (order === null) {
        if (once("pass")) this.table.hostDecide({ type: "privilege", seat: a.godfather, order: null });
      } else {
        this.poses[a.godfather] = { kind: "aim", target: order };
        // the snapshot window's samples (250 ms before the pull) all show the new pose: this gun turns at once
        if (this.clock.now() >= a.until - this.table.timing.privilegeWindowMs + 400 && once("privilege"))
          this.pull(a.godfather);
      }
    } else if (a.kind === "reveal") {
      const rs = this.opts.revealStall;
      if (rs && rs.round === st.round && a.seats.includes(rs.seat) && once(`rstall:${a.window}`)) {
        const from = a.closesAt - rs.beforeCloseMs;
        this.clock.setTimer(from - this.clock.now(), () => {
          this.stalled = { seat: rs.seat, until: from + rs.ms, held: [] };
        });
      }
      if (this.clock.now() < a.opensAt + 100) return;
      for (let seat = 0; seat < this.names.length; seat++) {
        const card = round.bullets[name(seat)];
        const stubborn = this.opts.stubbornPuller === seat && a.window === "bang";
        if ((card === a.window || stubborn) && this.online[seat] && once(`pull:${a.window}:${seat}`)) this.pull(seat);
      }
    } else if (a.kind === "phone") {
      if (once(`phone:${a.seat}`)) this.pull(a.seat, round.phone.includes(name(a.seat)) ? "2" : "p");
    }
  }

  private skewOf(seat: number, pose: Pose): number {
    const k = this.skew.get(seat) ?? 0;
    if (k !== "between") return k;
    if (pose.kind !== "aim") return 0;
    const n = this.names.length;
    let next = (pose.target + n - 1) % n;
    if (next === seat) next = (next + n - 1) % n;
    const row = this.rows[seat]!;
    const d = ((((row[next]! - row[pose.target]!) % 360) + 540) % 360) - 180;
    return d / 2;
  }

  /** Every online gun sends a sample of its pose (as it was `latency` ago). */
  private sample(): void {
    const now = this.clock.now();
    for (let seat = 0; seat < this.names.length; seat++) {
      if (!this.online[seat]) continue;
      const pose = this.poses[seat]!;
      const row = this.rows[seat]!;
      const centre = row[(seat + Math.floor(this.names.length / 2)) % this.names.length]!;
      const yaw = (pose.kind === "aim" ? row[pose.target]! : centre + 180) + this.skewOf(seat, pose);
      const wrapped = ((((yaw + 180) % 360) + 360) % 360) - 180;
      const pitch = pose.kind === "lowered" ? -70 : 2;
      const t = now - this.latency(seat) - this.gunDelta(seat);
      const sample: AimInput = { t, yaw: wrapped, pitch, roll: 0, still: false };
      const st = this.stalled;
      if (st?.seat === seat) {
        st.held.push(sample);
        continue;
      }
      this.table.aim(seat, sample, now);
    }
  }

  /** A stall ends: what the network held arrives at once, in order. */
  private unstall(): void {
    const st = this.stalled;
    if (st === null || this.clock.now() < st.until) return;
    this.stalled = null;
    for (const s of st.held)
      if ("k" in s) this.table.trigger(st.seat, s);
      else this.table.aim(st.seat, s, this.clock.now());
  }

  /** Runs until the game is over, `until` says stop, or `maxMs` of table time has passed. */
  run(opts: { maxMs?: number; until?: () => boolean } = {}): void {
    const end = this.clock.now() + (opts.maxMs ?? 600_000);
    let tick = 0;
    while (!this.table.state.over && this.clock.now() < end) {
      if (opts.until?.()) return;
      if (this.dropUntil >= 0 && this.clock.now() >= this.dropUntil) {
        const d = this.opts.drop!;
        this.dropUntil = -1;
        this.online[d.seat] = true;
        this.table.presence(d.seat, true);
      }
      this.act();
      this.unstall();
      if (tick++ % 2 === 0) this.sample();
      this.clock.advance(10);
    }
  }
}
