// What the hub publishes about a game, as everyone reads it: `table/state` (retained), `player/<n>/view` (retained,
// private to the seat), `table/events` and `table/aim`. Plain JSON types. The rules engine takes its events and
// views from here, and the hub builds what it publishes in these types, so what it computes is what is published.
// The strict decoders are in table-decode.ts.
import type { GunStatusMsg, HubMs, Version } from "./messages.js";
import type { GunId } from "./topics.js";
import type { Bill, Bullet, DecisionType, Edition, LootCard, PowerId, Role, Step, TableLang } from "./vocab.js";

/** A seat at the table, 0 to MAX_SEATS - 1, clockwise (the rules engine's and the hub's one seat type). */
export type Seat = number;
/** A game's id in the hub's log. */
export type GameNo = number;

/** One player as the whole table sees them. */
export interface PublicPlayer {
  seat: Seat;
  name: string;
  alive: boolean;
  wounds: number;
  /**
   * the wounds that kill this player, as far as the table may know: 3, or 4 for a revealed Unbreakable (one not yet
   * revealed shows 3: its third wound reveals it)
   */
  deadly: number;
  /** classic: shame markers */
  shame: number;
  /** classic: money; second: loot value before the end bonus */
  money: number;
  /** second: loot held, by kind */
  loot?: { cash: number; diamonds: number; paintings: number };
  /** unused bullet cards (count only) */
  cards: number;
  /** a second gun's unused cards, when taken */
  gun2Cards?: number;
  /** the power, once revealed (all of them at the end) */
  power: PowerId | null;
  /** the role, only at the end */
  role: Role | null;
  /** the aim once all aims are committed: a seat, null (nobody); absent: not shown yet */
  aim?: Seat | null;
  aim2?: Seat | null;
  /** lay down this round, once the courage step is over */
  lyingDown?: boolean;
  /** wounds taken this round */
  hurt: number;
  /** still owes a decision in this step (only where the table can see who is choosing) */
  waiting: boolean;
  /** the final score, once the game is over */
  score?: number;
}

/** The game's public view: `table/state`'s `game`. */
export interface PublicView {
  edition: Edition;
  round: number;
  step: Step;
  over: boolean;
  winners: Seat[];
  godfather: Seat;
  table: { bills: Bill[] } | { cards: LootCard[]; token: Seat | null };
  /** cards still in the deck (count only) */
  deckLeft: number;
  /** cards in the common discard pile (count only) */
  discardPile: number;
  /** cop variant: switchboard cards turned */
  switchboard?: number;
  /** players who shared, or draft, this round */
  sharers: Seat[];
  /** draft or phone: whose turn it is */
  turn: Seat | null;
  players: PublicPlayer[];
}

/** A seat's own private view: the public one plus what only that player knows. */
export interface PlayerView extends PublicView {
  me: {
    seat: Seat;
    hand: { [k in Bullet]: number };
    gun2: { [k in Bullet]: number } | null;
    card: Bullet | null;
    card2: Bullet | null;
    power: PowerId | null;
    role: Role | null;
  };
}

/** `player/<seat>/view`, retained, readable by that seat only. */
export interface PlayerViewMsg {
  v: Version;
  game: GameNo;
  seat: Seat;
  view: PlayerView;
}

/** Something that happened in the game, in order: `table/events`' `events`. */
export type GameEvent =
  | { type: "round-start"; round: number; godfather: Seat; loot: (Bill | LootCard)[] }
  | { type: "step"; step: Step }
  | { type: "power-revealed"; seat: Seat; power: PowerId }
  | { type: "lie-down"; seat: Seat }
  | { type: "lower-gun"; seat: Seat; gun: 1 | 2; target: Seat }
  | { type: "shot"; seat: Seat; gun: 1 | 2; card: Bullet; target: Seat | null }
  | { type: "wound"; seat: Seat; by: Seat | null; wounds: number }
  | { type: "wound-blocked"; seat: Seat; by: Seat | null }
  | { type: "grenade"; seat: Seat }
  | { type: "death"; seat: Seat }
  | { type: "split"; sharers: Seat[]; each: number; took: Bill[] }
  | { type: "phone"; flips: number; alerted: boolean }
  | { type: "specialist"; seat: Seat }
  | { type: "gun-taken"; seat: Seat; from: Seat }
  | { type: "pick"; seat: Seat; card: LootCard | "godfather"; effect?: string }
  | { type: "godfather"; seat: Seat }
  | { type: "game-over"; winners: Seat[]; scores: number[] };
export type GameEventType = GameEvent["type"];

/** `table/events`, QoS 1, not retained: the public events of one decision. */
export interface TableEventsMsg {
  v: Version;
  game: GameNo;
  events: GameEvent[];
}

/** What a count is for. */
export const COUNT_PURPOSES = ["aim", "reaim", "courage"] as const;
export type CountPurpose = (typeof COUNT_PURPOSES)[number];
/** classic: the Bang! Bang! Bang! window first, then the Bang! window; second: only `bang` */
export const REVEAL_WINDOWS = ["bbb", "bang"] as const;
export type RevealWindow = (typeof REVEAL_WINDOWS)[number];

/** What the table is doing right now. */
export type TableActivity =
  | {
      kind: "count";
      purpose: CountPurpose;
      seats: Seat[];
      goAt: HubMs | null;
      paceMs: number;
      /**
       * how long after "3" a draw is read (aim: a hold must begin by then, or the player was too slow; courage: a gun
       * lowered by then lies down)
       */
      drawMs: number;
      /** guns away (offline): waited for, then the drop rule */
      waitingGun: Seat[];
      /** guns online whose stream has not reached the snapshot yet (the network holds it), or was re-counted for it */
      lagging: Seat[];
    }
  | { kind: "privilege"; godfather: Seat; until: HubMs }
  | {
      kind: "reveal";
      window: RevealWindow;
      seats: Seat[];
      opensAt: HubMs;
      closesAt: HubMs;
      waitingGun: Seat[];
      /** guns whose stream has not reached the window's close yet: their pulls may still be on the way */
      lagging: Seat[];
    }
  | { kind: "phone"; seat: Seat }
  /** the re-centre pose: `seats` still to point at the Godfather and pull */
  | { kind: "recentre"; godfather: Seat; seats: Seat[]; until: HubMs };

/** Who the table waits for outside an activity. */
export type Waiting =
  | { seat: Seat; for: "secret" }
  | { seat: Seat | null; for: "start" }
  | { seat: Seat; for: "host"; decision: DecisionType }
  /** a restarted table's count waits for this seat's gun to come back */
  | { seat: Seat; for: "gun" };

/** The running table's status: `table/state`'s `table` (hub/src/table/ports.ts's TableStatus, plus `paused`). */
export interface TableStatus {
  round: number;
  step: Step;
  over: boolean;
  activity: TableActivity | null;
  waiting: Waiting[];
  /** per seat: the seat its gun points at now */
  live: (Seat | null)[];
  /** per seat: its gun is online */
  online: boolean[];
  /** You-don't-need-it-anymore: the gun paired to `from` (a dead seat) is `seat`'s gun 2 */
  guns2: { seat: Seat; from: Seat }[];
  /** the host paused the game: the table's timers are dropped and its inputs refused until resume */
  paused: boolean;
}

/** One seat as the table knows it: `table/state`'s `seats`. */
export interface SeatInfo {
  seat: Seat;
  /** the player's name, null without a game */
  name: string | null;
  /** the paired gun's id, or null */
  gun: GunId | null;
  /** 0xRRGGBB */
  colour: number;
  /** the gun's presence */
  online: boolean;
  /** this dead seat's gun is now that seat's gun 2 (You-don't-need-it-anymore), else null */
  gun2Of: Seat | null;
}

/** One seat's progress in the calibration wizard: `table/state`'s `calibration`. */
export interface CalibrationInfo {
  seat: Seat;
  gun: GunId;
  /** the seats to aim at, in order */
  targets: Seat[];
  /** the one to aim at now (null: done) */
  next: Seat | null;
  /** poses taken so far */
  poses: number;
  /** null until done; `spread` (degrees) is how far the poses disagree */
  result: null | { verdict: "ok" | "redo"; offset: number; spread: number; reasons: string[] };
}

/** pair.listen: the seat whose gun is waited for, until hub ms `until`. */
export interface PairListening {
  seat: Seat;
  until: HubMs;
}

/** The seat layout: a round table of n seats, or seat positions in metres (y up). */
export type LayoutSpec = { round: number } | { points: { x: number; y: number }[] };

/**
 * `table/state`, QoS 1, retained: after every change, the game's public view and what the table adds. A type, not
 * an interface: it fits where a plain JSON object (`Record<string, unknown>`) is asked for.
 */
export type TableStateMsg = {
  v: Version;
  /** the game's id, null: no game */
  id: GameNo | null;
  /** how many decisions are logged */
  decisions: number;
  game: PublicView | null;
  /** null when the game has no table */
  table: TableStatus | null;
  seats: SeatInfo[];
  /** the seats of the last calibrate.start (empty: none) */
  calibration: CalibrationInfo[];
  /** of the running table, else of the last calibrate.start, else null */
  layout: LayoutSpec | null;
  /** while pair.listen waits for a seat's gun; else null */
  pairing: PairListening | null;
  /** the table's language, or null: each browser uses its own */
  lang: TableLang | null;
};

/** One seated gun in `table/aim`. */
export interface SeatAim {
  seat: Seat;
  /** the seat the gun points at now (null: nobody or ambiguous) */
  target: Seat | null;
  /** its calibrated heading in table degrees, −180..180 (null: no sample yet) */
  yaw: number | null;
}

/** `table/aim`, QoS 0: who aims at whom, at most every 100 ms while guns move. */
export interface TableAimMsg {
  v: Version;
  at: HubMs;
  aims: SeatAim[];
}

/** Largest payload, in bytes, the decoders accept per table topic (the broker's packet limit is 256 KiB). */
export const TABLE_MAX_BYTES = { state: 131072, view: 131072, events: 65536, aim: 8192, status: 8192 };

/** How far a firmware update over the air is. */
export const OTA_STAGES = ["sending", "restarting", "done", "failed"] as const;
export type OtaStage = (typeof OTA_STAGES)[number];

/** A firmware update over the air, as a gun's status shows it. */
export interface GunOta {
  stage: OtaStage;
  /** the version being installed */
  fw: string;
  /** the version the gun ran when the update started */
  from: string | null;
  /** bytes the gun holds, of `n` */
  o: number;
  n: number;
  /** why it failed, or what it waits for */
  why?: string;
  at: HubMs;
}

/** `gun/<id>/status` as the hub writes it (retained): the gun's presence and info, and its pairing. */
export interface HubGunStatusMsg extends GunStatusMsg {
  /** false: an unpaired gun asking to be paired */
  paired: boolean;
  seat: Seat | null;
  /** the firmware update under way, or the last one since the hub started */
  ota?: GunOta;
}

/** What a reader of the retained `gun/<id>/status` needs (the bots, the venue view): paired and on, its seat, why not. */
export type GunStatusSeen = Pick<HubGunStatusMsg, "paired" | "on"> & Partial<Pick<HubGunStatusMsg, "seat" | "why">>;

/** One player in a game's result. */
export interface GameResultPlayer {
  alive: boolean;
  wounds: number;
  shame: number;
  money: number;
  score: number;
  loot?: { cash: number; diamonds: number; paintings: number };
  power?: PowerId | null;
  role?: Role | null;
}

/** A game's result so far, by player name: docs/scenarios.md's output shape (`game.state`'s `result`, the host's). */
export interface GameResult {
  edition: Edition;
  round: number;
  over: boolean;
  winners: string[];
  godfather?: string;
  table: { bills: Bill[] } | { cards: LootCard[] };
  switchboard?: number;
  players: { [name: string]: GameResultPlayer };
}
