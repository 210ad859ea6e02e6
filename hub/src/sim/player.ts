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
  seatColour,
  tableTopic,
} from "@cng/protocol";
import { angleDiff } from "../aim/index.js";
import type { Bullet, Decision, PlayerView, Seat } from "../rules/index.js";
import { open, viewKey } from "../seal/index.js";
import type { Clock } from "../table/clock.js";
import { CommandClient, CommandError } from "./commands.js";
import { type SimGun, simClientId } from "./fleet.js";
import { PULL_HOLD_MS } from "./hand.js";
import { correctedAim, drawCue, swingMsFor } from "./human.js";
import { logNormal } from "./prng.js";
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

/** What the gun's LED shows as its player sees it: a seat's colour, blinking with another's, or none. */
interface SeenColour {
  seat: Seat | null;
  between: Seat | null;
}

/** the LED's legs are all written within this of the first */
const LED_WRITE_MS = 2;
/** a colour blinking with another within this reads as between two seats */
const BLINK_MS = 400;

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

  /** Calls `fn` with when the person heard the count's `kind` tone due at hub ms `at` (or `at`, when no gun played it). */
  private hear(kind: "beat" | "go", at: number, pace: number, fn: (heard: number) => void): void {
    this.o.gun.ears.when(kind, at - pace / 2, at + pace / 2, (h) => {
      if (!this.stopped) fn(h ?? at);
    });
  }

  /** The person's reaction to "3" (a beat they wait for). */
  private reaction3(): number {
    const t = this.o.gun.hand.traits;
    return logNormal(this.o.gun.random, t.reaction3MedianMs, t.reaction3Sigma);
  }

  /**
   * Draws at a count as the person does: `act(cue, reactionMs)` makes the move that counts, `early(cue)` a switcher's
   * move at "1" (true when it is not already the one that counts); `done` once the last move is planned.
   */
  private draw(
    goAt: number,
    pace: number,
    bearing: number | null,
    act: (cue: number, reactionMs?: number) => void,
    early: ((cue: number) => boolean) | null,
    done: () => void,
  ): void {
    const g = this.o.gun;
    const kind = g.person.draw;
    const one = goAt - 2 * pace;
    if (kind === "one")
      this.hear("beat", one, pace, (h1) => {
        act(h1);
        done();
      });
    else if (kind === "three")
      this.hear("go", goAt, pace, (h3) => {
        act(h3, this.reaction3());
        done();
      });
    else if (kind === "timed")
      this.hear("beat", one, pace, (h1) =>
        this.hear("beat", goAt - pace, pace, (h2) => {
          // the swing is timed to end on the "3" the beats heard so far foretell
          const p = g.hand.pose(g.hand.now());
          const angle = bearing === null ? 60 : Math.hypot(angleDiff(bearing, p.yaw), p.pitch);
          const c = drawCue(g.random, g.person, "timed", h1, h2 + (h2 - h1), swingMsFor(g.hand.traits, angle));
          act(c.cueMs, c.reactionMs);
          done();
        }),
      );
    else
      this.hear("beat", one, pace, (h1) => {
        // with nothing to show early (a lie-down), a switcher moves at "3"
        const switches = early === null ? true : early(h1);
        this.hear("go", goAt, pace, (h3) => {
          if (switches) act(h3, this.reaction3());
          done();
        });
      });
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
      this.hear("beat", goAt - 2 * pace, pace, (h1) => {
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
    this.draw(
      goAt,
      pace,
      bearing,
      (cue, reaction) => g.hand.aim(bearing, cue, reaction),
      early,
      () => {
        settled();
        if (g.looks) this.watch(intent, target, goAt);
      },
    );
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
    this.draw(
      goAt,
      pace,
      null,
      (cue, reaction) => g.hand.lower(cue, reaction),
      null,
      () => {
        intent.readyAt = g.hand.settledAtHub();
      },
    );
  }

  /**
   * A person who watches the gun's colour: each time the swing ends, and each time the colour changes, a colour
   * other than the seat meant (another seat's, a blink between two, none) is corrected after a visual reaction, while
   * this count runs.
   */
  private watch(intent: Intent, target: Seat, goAt: number): void {
    const g = this.o.gun;
    const hand = g.hand;
    let pending = false;
    let stop = () => {};
    const counting = () => {
      const a = this.state?.table?.activity;
      // until the state says otherwise, and never long past the count (a state lost on the way)
      return (
        !this.stopped &&
        this.clock.now() < goAt + 8 * hand.traits.visualMedianMs + 2000 &&
        (a == null || (a.kind === "count" && a.goAt === goAt && a.seats.includes(this.o.seat)))
      );
    };
    const look = () => {
      if (!counting()) {
        stop();
        return;
      }
      if (pending || this.clock.now() < hand.arrivedAtHub()) return;
      if (this.rightColour(this.seenColour(), target)) return;
      pending = true;
      this.clock.setTimer(logNormal(g.random, hand.traits.visualMedianMs, hand.traits.visualSigma), () => {
        pending = false;
        if (!counting()) return stop();
        const seen = this.seenColour();
        if (this.rightColour(seen, target) || this.clock.now() < hand.arrivedAtHub()) return;
        const aim = correctedAim(g.random, hand.aimYaw(), seen, target, g.towards, () => g.aimAt(target));
        hand.aim(aim, this.clock.now(), 0);
        intent.readyAt = hand.settledAtHub();
        this.clock.setTimer(hand.arrivedAtHub() - this.clock.now() + 1, look);
      });
    };
    // an RGB LED's three legs are written one after another: look once the colour is whole
    stop = g.gun.onLed(() => this.clock.setTimer(LED_WRITE_MS, look));
    this.clock.setTimer(Math.max(0, hand.arrivedAtHub() - this.clock.now()) + 1, look);
  }

  /** Nothing to correct: the colour of the seat meant, steady; or no colour at all, which tells the player nothing. */
  private rightColour(seen: SeenColour, target: Seat): boolean {
    return seen.seat === null || (seen.seat === target && seen.between === null);
  }

  /**
   * What the gun's LED shows: a seat's colour, or a seat's blinking with another's (the two alternating lately; one
   * change of colour is the gun swinging past a seat, not a blink). The beats' white flashes and the moments the LED's
   * three legs are written one by one (one gun ms) are not looked at.
   */
  private seenColour(): SeenColour {
    const g = this.o.gun;
    const led = g.gun.led;
    const now = g.gun.now();
    const nowSeat = this.seatOfColour(g.gun.ledNow());
    if (nowSeat === null) return { seat: null, between: null };
    // the seat colours shown lately, newest first, each change once (the last write of each gun ms)
    const shown: Seat[] = [];
    for (let i = led.length - 1; i >= 0 && led[i]!.t >= now - BLINK_MS; i--) {
      if (i < led.length - 1 && led[i + 1]!.t === led[i]!.t) continue;
      const s = this.seatOfColour(led[i]!.c);
      if (s !== null && shown[shown.length - 1] !== s) shown.push(s);
    }
    const blinking = shown.length >= 3 && shown[0] === shown[2] && shown[1] !== shown[0];
    return { seat: nowSeat, between: blinking ? (shown[0] === nowSeat ? shown[1]! : shown[0]!) : null };
  }

  /** The seat whose colour this is (the board may dim it), or null for none, white or off. */
  private seatOfColour(c: number): Seat | null {
    const rgb = (x: number) => [(x >> 16) & 255, (x >> 8) & 255, x & 255];
    const norm = (v: number[]) => {
      const m = Math.max(...v);
      return m === 0 ? null : v.map((x) => x / m);
    };
    const seen = norm(rgb(c));
    // white, however dimmed: a beat's flash
    if (seen === null || seen.every((x) => x > 0.95)) return null;
    let best: Seat | null = null;
    let bestD = 0.15;
    for (let s = 0; s < this.o.gun.bearings.length; s++) {
      const n = norm(rgb(seatColour(s)))!;
      const d = Math.hypot(n[0]! - seen[0]!, n[1]! - seen[1]!, n[2]! - seen[2]!);
      if (d < bestD) {
        bestD = d;
        best = s;
      }
    }
    return best;
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
    g.hand.aim(g.aimAt(order), this.clock.now());
    await g.hand.pull(g.hand.settledAtHub() + 200 - this.clock.now());
  }

  /** The round's re-centre pose: point at the Godfather, settle, pull. */
  private async recentre(round: number, godfather: Seat): Promise<void> {
    this.intents.push({ round, kind: "recentre", target: godfather });
    const g = this.o.gun;
    const now = this.clock.now();
    g.hand.aim(g.aimAt(godfather), now);
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
