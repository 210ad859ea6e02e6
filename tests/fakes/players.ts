// The people at the table, scripted: they watch table/state like players watch the table, and follow a scenario
// (a seeded random bot game, so nothing is hard-coded): consoles send secret cards, the host starts rounds and
// enters draft picks, guns point at the scenario's targets during counts, lower for courage, pull in reveal
// windows, and the Godfather orders or passes.
import { decodeTableState, type TableStateMsg, tableTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import type { Decision } from "../../hub/src/rules/index.js";
import type { PlayedGun, Pose } from "./gun.js";
import { requestRaw } from "./hub.js";
import type { Scenario, ScenarioRound } from "./table-rig.js";
import { realTime, type TestTime } from "./time.js";

/** `table/state`, as the contract types it; every one the players see must decode. */
export type TableState = TableStateMsg;

export interface PlayersOptions {
  /** seats choose cards on consoles (with their seat tokens) */
  consoles: boolean;
  /** seat tokens by seat (consoles) */
  tokens?: string[];
  /** called on every state seen (tests inject drops here) */
  onState?: (s: TableState) => void;
  /** whose time the players act on (default: real) */
  time?: TestTime;
}

export class Players {
  state: TableState | null = null;
  private readonly done = new Set<string>();
  private readonly picks = new Map<number, number>();
  private busy = false;
  private stopTick: (() => void) | null = null;
  readonly errors: string[] = [];

  constructor(
    private readonly host: MqttClient,
    private readonly table: string,
    private readonly pin: string,
    private readonly scenario: Scenario,
    private readonly guns: PlayedGun[],
    private readonly opts: PlayersOptions,
  ) {}

  async start(): Promise<void> {
    const topic = tableTopic(this.table, "state");
    this.host.on("message", (t, p) => {
      if (t !== topic || p.length === 0) return;
      const d = decodeTableState(p);
      if (!d.ok) {
        this.errors.push(`table/state does not decode: ${d.error.message}`);
        return;
      }
      this.state = d.value;
      this.opts.onState?.(this.state);
      void this.act();
    });
    await this.host.subscribeAsync(topic, { qos: 1 });
    this.stopTick = this.time.every(20, () => void this.act());
  }

  private get time(): TestTime {
    return this.opts.time ?? realTime;
  }

  stop(): void {
    this.stopTick?.();
  }

  /** Resolves when the table says the game is over (`timeoutMs` of the players' time). */
  async over(timeoutMs: number): Promise<TableState> {
    const over = await this.time
      .until(
        () => {
          if (this.errors.length) throw new Error(this.errors.join("; "));
          return this.state?.table?.over ? this.state : null;
        },
        timeoutMs,
        "the game's end",
      )
      .catch((e: Error) => {
        throw this.errors.length ? e : new Error(`${e.message}; last status ${JSON.stringify(this.state?.table)}`);
      });
    return over;
  }

  private once(key: string): boolean {
    if (this.done.has(key)) return false;
    this.done.add(key);
    return true;
  }

  private name(seat: number): string {
    return this.scenario.players[seat]!;
  }

  private seatOf(name: string | null | undefined): number | null {
    return name === null || name === undefined ? null : this.scenario.players.indexOf(name);
  }

  private gun(seat: number): PlayedGun | undefined {
    return this.guns.find((g) => g.seat === seat);
  }

  private async req(op: string, a: Record<string, unknown>, auth = this.pin): Promise<void> {
    const r = await this.time.track(requestRaw(this.host, this.table, op, a, auth));
    if (!r.ok) this.errors.push(`${op} ${JSON.stringify(a)}: ${JSON.stringify(r.e)}`);
  }

  private async act(): Promise<void> {
    const st = this.state?.table;
    if (!st || st.over) return;
    const round: ScenarioRound | undefined = this.scenario.rounds[st.round - 1];
    if (!round) return;
    const r = st.round;
    // host and console inputs: one request at a time, as a person would
    if (!this.busy) {
      for (const w of st.waiting) {
        let job: Promise<void> | null = null;
        if (w.for === "secret") {
          // every console at once, as players choose together
          if (this.once(`${r}:secret:${w.seat}`)) {
            const card = round.bullets[this.name(w.seat)];
            if (card === undefined) {
              // the table asks a player the scenario has out of this round: the game left the scenario earlier
              this.errors.push(`round ${r}: the table waits for ${this.name(w.seat)}'s card, the scenario has none`);
              continue;
            }
            const token = this.opts.tokens?.[w.seat];
            // a seat's own console, or the host entering the card for that seat
            if (token) void this.req("secret.bullet", { card }, token);
            else void this.req("secret.bullet", { card, seat: w.seat });
          }
        } else if (w.for === "start" && this.once(`${r}:start`)) job = this.req("round.start", {});
        else if (w.for === "host" && w.decision === "pick") {
          const i = this.picks.get(r) ?? 0;
          const p = round.picks[i];
          if (p && this.once(`${r}:pick:${i}`)) {
            this.picks.set(r, i + 1);
            const d: Decision = { type: "pick", seat: this.seatOf(p[0])!, card: p[1] as "painting" };
            if (p[2]) (d as { discard?: string }).discard = p[2];
            job = this.req("host.decide", { decision: d });
          }
        }
        if (job) {
          this.busy = true;
          job.finally(() => {
            this.busy = false;
          });
          break;
        }
      }
    }
    const a = st.activity;
    if (!a) return;
    if (a.kind === "count") {
      for (const seat of a.seats) {
        const g = this.gun(seat);
        if (!g) continue;
        if (a.purpose === "aim") g.pose = this.aimPose(this.seatOf(round.aims[this.name(seat)]));
        else if (a.purpose === "reaim") g.pose = this.aimPose(this.seatOf(round.privilege?.aim));
        else if (round.lieDown.includes(this.name(seat))) g.pose = { kind: "lowered" };
      }
    } else if (a.kind === "privilege") {
      const order = this.seatOf(round.privilege?.player);
      if (order === null) {
        if (this.once(`${r}:pass`))
          void this.req("host.decide", { decision: { type: "privilege", seat: a.godfather, order: null } });
      } else {
        const g = this.gun(a.godfather)!;
        g.pose = { kind: "aim", target: order };
        if (this.once(`${r}:privilege`)) this.time.after(350, () => g.pull());
      }
    } else if (a.kind === "reveal") {
      if (this.time.now() < a.opensAt + 60) return;
      for (const seat of a.seats) {
        const g = this.gun(seat);
        if (g?.online && round.bullets[this.name(seat)] === a.window && this.once(`${r}:pull:${a.window}:${seat}`))
          g.pull();
      }
    } else if (a.kind === "phone") {
      if (this.once(`${r}:phone:${a.seat}`))
        this.gun(a.seat)?.pull(round.phone.includes(this.name(a.seat)) ? "2" : "p");
    }
  }

  private aimPose(target: number | null): Pose {
    return target === null ? { kind: "away" } : { kind: "aim", target };
  }
}
