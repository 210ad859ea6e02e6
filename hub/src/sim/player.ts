// A bot player at one seat: it watches the table (`table/state`) and its own view (`player/<n>/view`, with its
// seat token), chooses its secrets on the player console (`secret.bullet`, `power.reveal`), asks the host to
// enter what only the dashboard takes (draft picks and the like), and plays with its gun through a simulated
// hand: raises it when a count starts so it settles by "3", lowers it to lie down, pulls in a reveal window
// when its card calls for it, points and pulls as the Godfather, pulls once or twice when the phone comes.
import {
  CHOSEN_POWERS,
  decodePlayerView,
  decodeTableState,
  isOneOf,
  type Payload,
  playerTopic,
  tableTopic,
} from "@cng/protocol";
import type { Bullet, Decision, PlayerView, Seat } from "../rules/index.js";
import { open, viewKey } from "../seal/index.js";
import type { Clock } from "../table/clock.js";
import { CommandClient, CommandError } from "./commands.js";
import { type SimGun, simClientId } from "./fleet.js";
import { PULL_HOLD_MS } from "./hand.js";
import type { Strategy } from "./strategies.js";
import type { TableState } from "./table-view.js";

export type SecretMode = "console" | "physical";

export interface BotPlayerOptions {
  url: string;
  table: string;
  seat: Seat;
  /** the seat token (host: `seat.token`) */
  token: string;
  /** the broker login (default: `seat-<n>` with the token, the embedded broker's) */
  login?: { username: string; password: string };
  strategy: Strategy;
  gun: SimGun;
  /** console: secrets on the phone page; physical: cards in hand, shown by pulling in the reveal window */
  secrets?: SecretMode;
  /** enters a decision on the dashboard for this player (the host's `host.decide`) */
  relay: (d: Decision) => Promise<void>;
  log?: (line: string) => void;
}

/** What the bot meant to do, for tests and the demo's story: the sensors must never make it something else. */
export interface Intent {
  round: number;
  kind: "aim" | "reaim" | "courage" | "privilege" | "card" | "pull" | "phone" | "recentre";
  target?: Seat | null;
  lieDown?: boolean;
  card?: Bullet;
  flip?: boolean;
  /** a count's "3" (hub ms), and when the hand had settled on its aim or lowered the gun: the player was in time */
  goAt?: number;
  readyAt?: number;
}

export class BotPlayer {
  state: TableState | null = null;
  view: PlayerView | null = null;
  readonly intents: Intent[] = [];
  private readonly done = new Set<string>();
  private readonly aims = new Map<number, Seat | null>();
  private readonly courage = new Map<number, boolean>();
  private readonly cards = new Map<number, Bullet>();
  /** rounds whose power reveal is settled */
  private readonly revealed = new Set<number>();
  private stopped = false;

  private constructor(
    readonly client: CommandClient,
    private readonly o: BotPlayerOptions,
  ) {}

  static async join(o: BotPlayerOptions): Promise<BotPlayer> {
    const client = await CommandClient.connect(o.url, {
      table: o.table,
      clientId: simClientId(`seat${o.seat}`, o.table),
      username: o.login?.username ?? `seat-${o.seat}`,
      password: o.login?.password ?? o.token,
      auth: o.token,
    });
    const p = new BotPlayer(client, o);
    await client.subscribeDecoded(tableTopic(o.table, "state"), decodeTableState, (s) => {
      p.state = s;
      p.think();
    });
    // the view is sealed under the seat token's key: the console, and nobody else on the network, reads it
    const key = viewKey(o.token, o.table, o.seat);
    const openView = (p: Payload) => decodePlayerView(open(key, p.toString()) ?? "");
    await client.subscribeDecoded(playerTopic(o.table, o.seat, "view"), openView, (m) => {
      p.view = m.view;
      p.think();
    });
    return p;
  }

  get seat(): Seat {
    return this.o.seat;
  }

  get gun(): SimGun {
    return this.o.gun;
  }

  /** the hub's time, as the person hears it: the one their hand moves on */
  private get clock(): Clock {
    return this.o.gun.hand.clock;
  }

  private log(line: string): void {
    this.o.log?.(`seat ${this.o.seat}: ${line}`);
  }

  /** Runs `act` once per key; a timeout (the hub away) lets it run again on the next update. */
  private once(key: string, act: () => unknown): void {
    if (this.done.has(key)) return;
    this.done.add(key);
    Promise.resolve()
      .then(act)
      .catch((e: unknown) => {
        if (e instanceof CommandError && e.code === "timeout") this.done.delete(key);
        else this.log(`${key}: ${(e as Error).message}`);
      });
  }

  private think(): void {
    const s = this.state;
    const v = this.view;
    if (this.stopped || !s?.game || !s.table || !v) return;
    // the view and the state travel on two topics: act only when they agree on where the game is
    if (v.round !== s.game.round || v.step !== s.game.step || v.over !== s.game.over) return;
    // and the table's status, made apart from the game's view, must have caught up with it too
    if (s.table.round !== v.round || s.table.step !== v.step) return;
    const me = this.o.seat;
    const hand = this.o.gun.hand;
    const round = v.round;
    if (v.over) {
      this.once("over", () => void hand.rest(this.clock.now()));
      return;
    }
    if (!v.players[me]!.alive) {
      this.once("dead", () => void hand.rest(this.clock.now()));
      return;
    }
    this.once(`hold:${round}`, () => void hand.hold(this.o.gun.centre, this.clock.now()));
    this.secrets(s, v);
    for (const w of s.table.waiting) {
      if (w.seat !== me || w.for !== "host") continue;
      // a draft pick or the phone: only on this player's turn as the engine sees it (the view is the latest word)
      if ((v.step === "draft" || v.step === "phone") && v.turn !== me) continue;
      this.once(`host:${round}:${w.decision}:${s.decisions}`, () => this.host(v, w.decision));
    }
    const a = s.table.activity;
    if (a === null) return;
    if (a.kind === "count" && a.goAt !== null && a.seats.includes(me)) {
      // people hear the count start (the lead-in beep, the dashboard) a moment before "1"
      const cue = Math.min(this.clock.now(), a.goAt - 2 * a.paceMs);
      const purpose = a.purpose;
      const goAt = a.goAt;
      if (purpose === "courage") this.once(`courage:${goAt}`, () => this.courageCount(v, cue, goAt));
      else this.once(`count:${goAt}`, () => this.aimCount(v, purpose, cue, goAt));
    } else if (a.kind === "privilege" && a.godfather === me) {
      this.once(`privilege:${a.until}`, () => this.privilege(v));
    } else if (a.kind === "reveal" && a.seats.includes(me)) {
      const card = this.cards.get(round);
      if (card === a.window)
        this.once(`reveal:${a.window}:${a.opensAt}`, () => this.revealPull(round, card, a.opensAt));
    } else if (a.kind === "phone" && a.seat === me) {
      this.once(`phone:${round}:${s.decisions}`, () => this.phone(v));
    } else if (a.kind === "recentre" && a.seats.includes(me)) {
      this.once(`recentre:${round}:${a.until}`, () => this.recentre(round, a.godfather));
    }
  }

  private secrets(s: TableState, v: PlayerView): void {
    const me = this.o.seat;
    const round = v.round;
    const strategy = this.o.strategy;
    if ((this.o.secrets ?? "console") === "physical") {
      // cards in hand: chosen now, shown only by pulling in the reveal window
      if (v.step === "bullet" && !this.cards.has(round)) {
        const card = strategy.card(v);
        this.cards.set(round, card);
        this.intents.push({ round, kind: "card", card });
      }
      return;
    }
    if (!s.table!.waiting.some((w) => w.seat === me && w.for === "secret")) return;
    const power = v.me.power;
    if (v.step === "bullet" && power && isOneOf(CHOSEN_POWERS, power) && v.players[me]!.power === null) {
      // a power revealed now may change what is wanted of this seat (the Cunning picks later): settle it first
      const key = `reveal-power:${round}`;
      if (!this.done.has(key)) {
        this.once(key, async () => {
          let shown = false;
          try {
            if (strategy.reveal(v)) {
              await this.client.request("power.reveal", { power });
              shown = true;
            }
          } finally {
            this.revealed.add(round);
            // a reveal comes back as a new state; without one, nothing else would wake the bot
            if (!shown) this.clock.setTimer(0, () => this.think());
          }
        });
        return;
      }
      if (!this.revealed.has(round)) return;
    }
    if (v.me.card === null && v.me.hand.bbb + v.me.hand.bang + v.me.hand.click > 0)
      this.once(`secret:${round}:${v.step}:1`, async () => {
        const card = strategy.card(v, 1);
        this.cards.set(round, card);
        this.intents.push({ round, kind: "card", card });
        await this.client.request("secret.bullet", { card });
      });
    const g2 = v.me.gun2;
    if (g2 && v.me.card2 === null && g2.bbb + g2.bang + g2.click > 0)
      this.once(`secret:${round}:${v.step}:2`, async () => {
        await this.client.request("secret.bullet", { card: strategy.card(v, 2), gun: 2 });
      });
  }

  private async host(v: PlayerView, type: Decision["type"]): Promise<void> {
    const choices = this.o.strategy.host(v, type);
    let last: unknown = new Error(`no choice for ${type}`);
    for (const d of choices) {
      try {
        await this.o.relay(d);
        return;
      } catch (e) {
        last = e;
        if (e instanceof CommandError && e.code === "timeout") throw e;
      }
    }
    throw last;
  }

  private aimCount(v: PlayerView, purpose: "aim" | "reaim", cue: number, goAt: number): void {
    const round = v.round;
    let target: Seat | null;
    if (purpose === "reaim") {
      const old = v.players[this.o.seat]!.aim ?? null;
      target = this.o.strategy.target(v, old, "reaim");
    } else {
      if (!this.aims.has(round)) this.aims.set(round, this.o.strategy.target(v));
      target = this.aims.get(round)!;
    }
    const g = this.o.gun;
    if (target === null) g.hand.hold(g.centre, cue);
    else g.hand.aim(g.bearings[target]!, cue);
    this.intents.push({ round, kind: purpose, target, goAt, readyAt: g.hand.settledAtHub() });
  }

  private courageCount(v: PlayerView, cue: number, goAt: number): void {
    const round = v.round;
    if (!this.courage.has(round)) this.courage.set(round, this.o.strategy.lieDown(v));
    const lieDown = this.courage.get(round)!;
    if (lieDown) this.o.gun.hand.lower(cue);
    this.intents.push({ round, kind: "courage", lieDown, goAt, readyAt: this.o.gun.hand.settledAtHub() });
  }

  private async privilege(v: PlayerView): Promise<void> {
    const order = this.o.strategy.privilege(v);
    this.intents.push({ round: v.round, kind: "privilege", target: order });
    if (order === null) {
      // the Godfather shakes their head: the host enters the pass rather than letting the window run out
      await this.o.relay({ type: "privilege", seat: this.o.seat, order: null });
      return;
    }
    const g = this.o.gun;
    g.hand.aim(g.bearings[order]!, this.clock.now());
    await g.hand.pull(g.hand.settledAtHub() + 200 - this.clock.now());
  }

  /** The round's re-centre pose: point at the Godfather, settle, pull. */
  private async recentre(round: number, godfather: Seat): Promise<void> {
    this.intents.push({ round, kind: "recentre", target: godfather });
    const g = this.o.gun;
    const now = this.clock.now();
    g.hand.aim(g.bearings[godfather]!, now);
    const pullIn = g.hand.settledAtHub() + 200 - now;
    // then lowers it, as a person does once the pose is taken: a slow player whose count's aim starts after "go"
    // would otherwise still point at the Godfather, steady, and the table would rightly take that as the aim
    g.hand.hold(g.centre, now + pullIn + PULL_HOLD_MS);
    await g.hand.pull(pullIn);
  }

  private async revealPull(round: number, card: Bullet, opensAt: number): Promise<void> {
    this.intents.push({ round, kind: "pull", card });
    const g = this.o.gun;
    const reaction = g.hand.traits.reactionMedianMs * (0.8 + 0.4 * g.random());
    await g.hand.pull(opensAt + reaction - this.clock.now());
  }

  private async phone(v: PlayerView): Promise<void> {
    const flip = this.o.strategy.flip(v);
    this.intents.push({ round: v.round, kind: "phone", flip });
    const g = this.o.gun;
    const delay = g.hand.traits.reactionMedianMs;
    if (flip) await g.hand.doublePull(delay);
    else await g.hand.pull(delay);
  }

  async leave(): Promise<void> {
    this.stopped = true;
    await this.client.close();
  }
}
