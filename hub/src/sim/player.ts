// A bot player at one seat: it watches the table (`table/state`) and its own view (`player/<n>/view`, with its
// seat token), chooses its secrets on the player console (`secret.bullet`, `power.reveal`), asks the host to
// enter what only the dashboard takes (draft picks and the like), and plays with its gun through a simulated
// hand, as its person does (sim/human.ts): at a count it draws on the beats it hears the guns play ("1", or "3" as
// the rule books say, or timed to "3", or a switch at "3"), and a person who watches the gun's colour corrects a
// wrong one; it lowers the gun to lie down, pulls in a reveal window when its card calls for it, points and pulls as
// the Godfather, pulls once or twice when the phone comes.
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
import { drawAtCount, hearOne } from "./draw.js";
import { watchColour } from "./eyes.js";
import { type SimGun, simClientId } from "./fleet.js";
import { answerPhone, pointAndPull, recentrePose, revealPull } from "./gestures.js";
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
  /** the player is in time when settled by this (hub ms; default goAt): "3" and the count's reaction window */
  dueAt?: number;
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
  private readonly isStopped = () => this.stopped;

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
      // the table's state says a count is on and what it is for; when to move, the beats the guns play say
      const purpose = a.purpose;
      const goAt = a.goAt;
      const pace = a.paceMs;
      // in time: settled by "3" and the count's reaction window after it
      const due = goAt + a.drawMs;
      if (purpose === "courage") this.once(`courage:${goAt}`, () => this.courageCount(v, goAt, pace, due));
      else this.once(`count:${goAt}`, () => this.aimCount(v, purpose, goAt, pace, due));
    } else if (a.kind === "privilege" && a.godfather === me) {
      this.once(`privilege:${a.until}`, () => this.privilege(v));
    } else if (a.kind === "reveal" && a.seats.includes(me)) {
      const card = this.cards.get(round);
      if (card === a.window)
        this.once(`reveal:${a.window}:${a.opensAt}`, () => {
          this.intents.push({ round, kind: "pull", card });
          return revealPull(this.o.gun, this.clock, a.opensAt);
        });
    } else if (a.kind === "phone" && a.seat === me) {
      this.once(`phone:${round}:${s.decisions}`, () => {
        const flip = this.o.strategy.flip(v);
        this.intents.push({ round, kind: "phone", flip });
        return answerPhone(this.o.gun, flip);
      });
    } else if (a.kind === "recentre" && a.seats.includes(me)) {
      this.once(`recentre:${round}:${a.until}`, () => {
        this.intents.push({ round, kind: "recentre", target: a.godfather });
        return recentrePose(this.o.gun, this.clock, a.godfather);
      });
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

  private aimCount(v: PlayerView, purpose: "aim" | "reaim", goAt: number, pace: number, dueAt: number): void {
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
    const intent: Intent = { round, kind: purpose, target, goAt, readyAt: goAt, dueAt };
    this.intents.push(intent);
    const settled = () => {
      intent.readyAt = g.hand.settledAtHub();
    };
    if (target === null) {
      hearOne(g, this.isStopped, goAt, pace, (h1) => {
        g.hand.hold(g.centre, h1);
        settled();
      });
      return;
    }
    const bearing = g.aimAt(target);
    // a switcher points at someone from "1" (now and then the one they mean) and moves at "3"
    const early = (h1: number) => {
      const others = v.players.map((_, j) => j).filter((j) => j !== this.o.seat && v.players[j]!.alive);
      const decoy = others[Math.floor(g.random() * others.length)] ?? target;
      g.hand.aim(decoy === target ? bearing : g.aimAt(decoy), h1);
      settled();
      return decoy !== target;
    };
    drawAtCount(g, this.isStopped, {
      goAt,
      pace,
      bearing,
      act: (cue, reaction) => g.hand.aim(bearing, cue, reaction),
      early,
      done: () => {
        settled();
        if (g.looks) this.watch(intent, target, goAt);
      },
    });
  }

  private courageCount(v: PlayerView, goAt: number, pace: number, dueAt: number): void {
    const round = v.round;
    if (!this.courage.has(round)) this.courage.set(round, this.o.strategy.lieDown(v));
    const lieDown = this.courage.get(round)!;
    const g = this.o.gun;
    const intent: Intent = { round, kind: "courage", lieDown, goAt, readyAt: goAt, dueAt };
    this.intents.push(intent);
    if (!lieDown) return;
    // a switcher who lies down does it at "3", as one who draws there
    drawAtCount(g, this.isStopped, {
      goAt,
      pace,
      bearing: null,
      act: (cue, reaction) => g.hand.lower(cue, reaction),
      early: null,
      done: () => {
        intent.readyAt = g.hand.settledAtHub();
      },
    });
  }

  /** A person who looks corrects a wrong colour while this count runs (never long past it: a state lost on the way). */
  private watch(intent: Intent, target: Seat, goAt: number): void {
    const g = this.o.gun;
    const until = goAt + 8 * g.hand.traits.visualMedianMs + 2000;
    const counting = () => {
      const a = this.state?.table?.activity;
      return (
        !this.stopped &&
        this.clock.now() < until &&
        (a == null || (a.kind === "count" && a.goAt === goAt && a.seats.includes(this.o.seat)))
      );
    };
    watchColour(g, this.clock, target, counting, () => {
      intent.readyAt = g.hand.settledAtHub();
    });
  }

  private async privilege(v: PlayerView): Promise<void> {
    const order = this.o.strategy.privilege(v);
    this.intents.push({ round: v.round, kind: "privilege", target: order });
    // the Godfather shakes their head: the host enters the pass rather than letting the window run out
    if (order === null) await this.o.relay({ type: "privilege", seat: this.o.seat, order: null });
    else await pointAndPull(this.o.gun, this.clock, order);
  }

  async leave(): Promise<void> {
    this.stopped = true;
    await this.client.close();
  }
}
