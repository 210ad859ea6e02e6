// How a bot player makes up its mind, from what a player may know: its own view (hand, power, role, the
// public table). Every choice is a pure function of (the bot's seed, its seat, where the game is, the view),
// so a bot asked again — after a hub restart, a recount — answers the same, and two runs with the same seed
// make the same choices.
import { HOST_CHOICES, type HostChoice, hostDecision } from "@cng/protocol";
import {
  type Bullet,
  DEADLY_WOUNDS,
  type Decision,
  type DecisionType,
  type LootCard,
  type PlayerView,
  paintingValue,
  Rng,
  type Seat,
} from "../rules/index.js";

export const STRATEGIES = ["cautious", "aggressive", "greedy", "random"] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export function isStrategy(x: string): x is StrategyName {
  return (STRATEGIES as readonly string[]).includes(x);
}

interface Temper {
  /** weight of each card kind over its count in hand */
  cards: Record<Bullet, number>;
  /** chance to hold the gun low (aim at nobody) */
  nobody: number;
  /** chance to lie down: base when aimed at, per extra gun, per wound held */
  lieBase: number;
  liePerGun: number;
  liePerWound: number;
  /** chance to reveal a power that is revealed by choice, each round */
  reveal: number;
  /** second: the Godfather orders someone aiming at them to re-aim */
  order: number;
  /** cop: flips the phone */
  flip: number;
  /** draft: noise on card values (0: always the best) */
  pickNoise: number;
}

const TEMPERS: Record<StrategyName, Temper> = {
  cautious: {
    cards: { bbb: 0.5, bang: 0.6, click: 2 },
    nobody: 0.08,
    lieBase: 0.45,
    liePerGun: 0.25,
    liePerWound: 0.2,
    reveal: 0.1,
    order: 0.9,
    flip: 0.3,
    pickNoise: 0.3,
  },
  aggressive: {
    cards: { bbb: 3, bang: 3, click: 0.5 },
    nobody: 0,
    lieBase: 0.02,
    liePerGun: 0.05,
    liePerWound: 0.25,
    reveal: 0.6,
    order: 0.5,
    flip: 0.7,
    pickNoise: 0.3,
  },
  greedy: {
    cards: { bbb: 1.5, bang: 1.5, click: 1 },
    nobody: 0.02,
    lieBase: 0.15,
    liePerGun: 0.15,
    liePerWound: 0.25,
    reveal: 0.4,
    order: 0.7,
    flip: 0.5,
    pickNoise: 0,
  },
  random: {
    cards: { bbb: 1, bang: 1, click: 1 },
    nobody: 0.03,
    lieBase: 0.2,
    liePerGun: 0.1,
    liePerWound: 0.1,
    reveal: 0.3,
    order: 0.5,
    flip: 0.5,
    pickNoise: 1,
  },
};

/** A fresh PRNG for one choice: the same (seed, seat, round, what) always draws the same numbers. */
function rngFor(seed: number, seat: Seat, round: number, what: string): Rng {
  let h = (seed * 2654435761) ^ (seat * 40503) ^ (round * 9973);
  for (let i = 0; i < what.length; i++) h = Math.imul(h ^ what.charCodeAt(i), 16777619);
  return new Rng(h >>> 0);
}

function weighted<T>(rng: Rng, items: readonly { v: T; w: number }[]): T | null {
  const total = items.reduce((a, x) => a + Math.max(0, x.w), 0);
  if (total <= 0) return null;
  let r = (rng.next() / 4294967296) * total;
  for (const x of items) {
    r -= Math.max(0, x.w);
    if (r < 0) return x.v;
  }
  return items.at(-1)!.v;
}

function others(v: PlayerView): Seat[] {
  return v.players.filter((p) => p.alive && p.seat !== v.me.seat).map((p) => p.seat);
}

/** The loot on the table, for greed: classic bills, or second's cards at face value. */
function lootOnTable(v: PlayerView): number {
  if ("bills" in v.table) return v.table.bills.reduce((a, b) => a + b, 0);
  return v.table.cards.reduce((a, c) => a + cardValue(c, v), 0);
}

function cardValue(c: LootCard | "godfather", v: PlayerView): number {
  if (c === "godfather") return 6000;
  const [kind, amount] = c.split(":");
  if (kind === "cash" || kind === "diamond") return Number(amount) + (kind === "diamond" ? 1000 : 0);
  const me = v.players[v.me.seat]!;
  if (c === "painting") {
    const n = me.loot?.paintings ?? 0;
    return paintingValue(n + 1) - paintingValue(n);
  }
  if (c === "first-aid") return me.wounds > 0 ? 9000 * me.wounds : 500;
  return 2500; // clip
}

export class Strategy {
  private readonly t: Temper;

  constructor(
    readonly name: StrategyName,
    readonly seed: number,
    readonly seat: Seat,
  ) {
    this.t = TEMPERS[name];
  }

  private rng(v: PlayerView, what: string): Rng {
    return rngFor(this.seed, this.seat, v.round, what);
  }

  /** The secret card for gun 1 (or the second gun). */
  card(v: PlayerView, gun: 1 | 2 = 1): Bullet {
    const hand = gun === 2 ? v.me.gun2 : v.me.hand;
    const rng = this.rng(v, `card${gun}`);
    const greed = this.name === "greedy" ? Math.min(2, lootOnTable(v) / 30000) : 1;
    const pick = weighted<Bullet>(
      rng,
      (["bbb", "bang", "click"] as const).map((c) => ({
        v: c,
        w: (hand?.[c] ?? 0) * this.t.cards[c] * (c === "click" ? 1 : greed),
      })),
    );
    return pick ?? "click";
  }

  /** Whom to aim at (null: nobody, the gun held low). `avoid` for a re-aim: not the old target. */
  target(v: PlayerView, avoid: Seat | null = null, purpose = "aim"): Seat | null {
    const rng = this.rng(v, purpose);
    const seats = others(v).filter((s) => s !== avoid);
    if (seats.length === 0) return null;
    if (purpose === "aim" && rng.chance(this.t.nobody)) return null;
    const money = (s: Seat) => v.players[s]!.money;
    switch (this.name) {
      case "aggressive": {
        // the richest, mostly
        if (rng.chance(0.35)) return seats[rng.int(seats.length)]!;
        const top = Math.max(...seats.map(money));
        const rich = seats.filter((s) => money(s) === top);
        return rich[rng.int(rich.length)]!;
      }
      case "greedy":
        return weighted(
          rng,
          seats.map((s) => ({ v: s, w: money(s) + 5000 })),
        );
      case "cautious":
        // the least wounded: whoever is most able to hit back
        return weighted(
          rng,
          seats.map((s) => ({ v: s, w: 3 - v.players[s]!.wounds })),
        );
      default:
        return seats[rng.int(seats.length)]!;
    }
  }

  /** At the courage count: lie down? The view shows who aims at whom by then. */
  lieDown(v: PlayerView): boolean {
    const me = v.me.seat;
    const guns = v.players.filter((p) => p.alive && p.seat !== me && (p.aim === me || p.aim2 === me)).length;
    const rng = this.rng(v, "courage");
    if (guns === 0) return rng.chance(this.name === "random" ? 0.05 : 0);
    const wounds = v.players[me]!.wounds;
    let p = this.t.lieBase + this.t.liePerGun * (guns - 1) + this.t.liePerWound * wounds;
    // one more wound kills: everyone but the reckless thinks twice
    if (wounds === DEADLY_WOUNDS - 1 && this.name !== "aggressive") p += 0.3;
    if (this.name === "greedy") p -= Math.min(0.3, lootOnTable(v) / 200000);
    return rng.chance(Math.max(0, Math.min(0.95, p)));
  }

  /** Reveal a power that is revealed by choice, this round? */
  reveal(v: PlayerView): boolean {
    return this.rng(v, "reveal").chance(this.t.reveal);
  }

  /** The Godfather's privilege: whom to order to re-aim (null: let it pass). */
  privilege(v: PlayerView): Seat | null {
    const me = v.me.seat;
    const rng = this.rng(v, "privilege");
    const atMe = others(v).filter((s) => v.players[s]!.aim === me);
    if (atMe.length === 0 || !rng.chance(this.t.order)) return null;
    return atMe[rng.int(atMe.length)]!;
  }

  /** The cop's phone: flip it (call the reinforcements)? Gangsters never can. */
  flip(v: PlayerView): boolean {
    return v.me.role === "cop" && this.rng(v, `phone${v.switchboard ?? 0}`).chance(this.t.flip);
  }

  /** The decisions sensors cannot give, made on the dashboard for this seat; a list of fallbacks after the first. */
  host(v: PlayerView, type: DecisionType): Decision[] {
    const seat = v.me.seat;
    const rng = this.rng(v, `${type}${"cards" in v.table ? v.table.cards.length : 0}`);
    switch (type) {
      case "pick": {
        if (!("cards" in v.table)) return [];
        const options: (LootCard | "godfather")[] = [...v.table.cards];
        if (v.table.token === null) options.push("godfather");
        const scored = options
          .map((c) => ({ c, s: cardValue(c, v) * (1 + this.t.pickNoise * (rng.next() / 4294967296 - 0.5)) }))
          .sort((a, b) => b.s - a.s);
        const out: Decision[] = [];
        for (const { c } of scored) {
          out.push({ type: "pick", seat, card: c });
          if (c === "clip") {
            out.push({ type: "pick", seat, card: c, discard: "click" });
            out.push({ type: "pick", seat, card: c, discard: "bang" });
          }
        }
        return out;
      }
      case "doesnt-hurt":
        return [{ type: "doesnt-hurt", seat, use: rng.chance(0.6) }];
      case "take-gun":
        return [{ type: "take-gun", seat, from: null }];
      case "specialist": {
        const h = v.me.hand;
        const first: Bullet | null = h.click > 0 ? "click" : h.bang > 0 ? "bang" : null;
        return [
          { type: "specialist", seat, discard: first },
          { type: "specialist", seat, discard: null },
        ];
      }
      case "phone":
        return [
          { type: "phone", seat, flip: this.flip(v) },
          { type: "phone", seat, flip: false },
        ];
      default:
        return this.pressAny(v, type, rng);
    }
  }

  /** A decision this bot has no mind of its own about: the host's buttons for it, in a random order. */
  private pressAny<K extends DecisionType>(v: PlayerView, type: K, rng: Rng): Decision[] {
    const seat = v.me.seat;
    const dead = v.players.filter((p) => !p.alive).map((p) => p.seat);
    const out = (HOST_CHOICES[type] ?? []).flatMap((c: HostChoice<K>) =>
      (c.each === "dead" ? dead : [seat]).map((at): Decision => hostDecision(type, seat, c, at)),
    );
    for (let i = out.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}
