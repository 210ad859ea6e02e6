// The hub's request/response ops (hub/src/commands/README.md), each op's arguments (`a`) and result (`r`) in one
// map. The hub's handlers, decoders and registry are typed by it, and so are its clients: the dashboard, the
// simulator's bots, the `cng` commands and the tests.
import type { Decision } from "./decision.js";
import type { GameNewArgs } from "./game-setup.js";
import type { HubMs, ResponseError, Version } from "./messages.js";
import type {
  CalibrationInfo,
  GameEvent,
  GameNo,
  GameResult,
  HubGunStatusMsg,
  LayoutSpec,
  PairListening,
  PlayerView,
  PublicView,
  Seat,
  TableStateMsg,
  TableStatus,
} from "./table.js";
import type { GunId } from "./topics.js";
import type { Bullet, PowerId, TableLang } from "./vocab.js";

/** An op that takes no arguments. */
export type NoArgs = { [k: string]: never };

/** A gun as `guns.list` lists it: its id and its retained status. */
export type GunListing = { id: GunId } & HubGunStatusMsg;

/** A device that logs in as the host with its own token. */
export interface HostDevice {
  id: string;
  name: string;
  createdAt: HubMs;
  lastSeen: HubMs;
}

/** One logged game in `game.list` (`edition` "?" and no players: its log does not replay). */
export interface GameListing {
  id: GameNo;
  createdAt: HubMs;
  decisions: number;
  edition: string;
  players: string[];
  over: boolean;
  winners: Seat[];
}

/** One round of a game's story: its public view when it ended (or now: `done` false) and its public events. */
export interface RoundHistory {
  round: number;
  done: boolean;
  view: PublicView;
  events: GameEvent[];
}

/** A game's public story, replayed from its log. */
export interface GameHistory {
  /** the public view before the first decision */
  start: PublicView;
  rounds: RoundHistory[];
  /** the public view now */
  view: PublicView;
}

/** `game.state`: the caller's view (a seat token's own, else the public one); the host also gets the result so far. */
export type GameState =
  | { game: null }
  | { game: GameNo; decisions: number; view: PublicView | PlayerView; result?: GameResult };

/** A firmware update `guns.update` started, or a gun it left out and why. */
export interface OtaStarted {
  gun: GunId;
  board: string;
  fw: string;
  from: string | null;
}
export interface OtaRefused {
  gun: GunId;
  why: string;
}

/** The IMU mounting step's poses (`calibrate.mount`). */
export const MOUNT_POSES = ["level", "up", "cancel"] as const;
export type MountPose = (typeof MOUNT_POSES)[number];

/** What a mounting step did. */
export type MountStep =
  | { gun: GunId; pose: "level"; up: string; tilt: number; mount: string }
  | {
      gun: GunId;
      pose: "up";
      /** the mounting found, now stored in the gun's gun.json and in use */
      mount: string;
      /** the mounting the gun ran before */
      was: string;
      forward: string;
      up: string;
    }
  | { gun: GunId; pose: "cancel" }
  | { gun: GunId; pose: "set"; mount: string };

/** A gun's battery reading calibrated (`gun.battery`), or, for a board that takes no calibration, what to flash. */
export type BatteryCalibrated =
  | {
      gun: GunId;
      /** volts the host gave (or the curve's full) */
      volts: number;
      /** what the gun read before, and with the new factor */
      was: { bv: number; bat?: number };
      now: { bv: number; bat?: number; bk: number };
    }
  | { gun: GunId; volts: number; flash: { bat: number; why: string } };

/** A seat the calibration wizard started: its gun and the seats it aims at, in order. */
export interface CalibratingSeat {
  seat: Seat;
  gun: GunId;
  targets: Seat[];
}

/** Every op: its arguments and its result. */
export interface Ops {
  "guns.list": { args: NoArgs; result: { guns: GunListing[] } };
  "pair.accept": { args: { gun: GunId; seat?: Seat | null }; result: { gun: GunId; seat: Seat | null } };
  "pair.reject": { args: { gun: GunId }; result: { gun: GunId } };
  "pair.listen": { args: { seat: Seat | null }; result: { listening: PairListening | null } };
  "gun.forget": { args: { gun: GunId }; result: { gun: GunId } };
  "gun.seat": { args: { gun: GunId; seat: Seat | null }; result: { gun: GunId; seat: Seat | null } };
  /**
   * the bridge of a paired gun on a serial or Bluetooth link (its hello names no key): a new login of its own (the gun's
   * MQTT password from now on, in place of the last one), and `m`, the answer to the nonce `n` of the gun's hello
   */
  "gun.bridge": { args: { gun: GunId; n: string }; result: { gun: GunId; token: string; m: string } };
  "guns.update": {
    args: { guns: GunId[] | "all"; board?: string | null; force?: boolean };
    result: { started: OtaStarted[]; refused: OtaRefused[] };
  };
  "gun.battery": { args: { gun: GunId; volts: number } | { gun: GunId; full: true }; result: BatteryCalibrated };
  "seat.token": { args: { seat: Seat; renew?: boolean }; result: { seat: Seat; token: string } };
  "devices.enrol": { args: { name: string }; result: { device: HostDevice; token: string } };
  /** the PIN exchange's first move (seal/pake.ts): the client's blinded point `X`, the hub's `Y` */
  "login.start": { args: { X: string }; result: { sid: string; Y: string } };
  /** its second: the client's confirmation `c`; the hub's, and the new device and its token sealed under the shared key */
  "login.finish": { args: { sid: string; c: string; name: string }; result: { c: string; x: string } };
  "devices.list": { args: NoArgs; result: { devices: (HostDevice & { self: boolean })[] } };
  "devices.revoke": { args: { id: string }; result: { id: string } };
  "game.new": { args: GameNewArgs; result: { game: GameNo; view: PublicView; table: TableStatus | null } };
  "game.decide": {
    args: { decision: Decision };
    result: { game: GameNo; decisions: number; events: GameEvent[] };
  };
  "game.state": { args: NoArgs; result: GameState };
  "game.list": { args: NoArgs; result: { games: GameListing[] } };
  "game.history": { args: { game: GameNo }; result: { game: GameNo } & GameHistory };
  "game.undo": { args: NoArgs; result: { game: GameNo; decisions: number; undone: Decision } };
  "game.pause": { args: NoArgs; result: { paused: true } };
  "game.resume": { args: NoArgs; result: { paused: false } };
  "round.start": { args: NoArgs; result: { round: number } };
  "secret.bullet": { args: { card: Bullet; gun?: 2; seat?: Seat | null }; result: { seat: Seat } };
  "power.reveal": { args: { power: PowerId; seat?: Seat | null }; result: { seat: Seat } };
  "power.specialist": {
    args: { use: boolean; discard?: "bang" | "click" | null; seat?: Seat | null };
    result: { seat: Seat };
  };
  "host.decide": { args: { decision: Decision }; result: { game: GameNo; decisions: number } };
  "table.status": { args: NoArgs; result: TableStateMsg };
  "table.lang": { args: { lang: TableLang | null }; result: { lang: TableLang | null } };
  "calibrate.start": {
    args: { seat?: Seat | null; poses?: 1 | 2 | 3; layout?: LayoutSpec };
    result: { seats: CalibratingSeat[] };
  };
  "calibrate.cancel": { args: { seat?: Seat | null }; result: { seats: Seat[] } };
  "calibrate.status": { args: NoArgs; result: { calibration: CalibrationInfo[] } };
  "calibrate.mount": {
    args: { gun: GunId; pose: MountPose } | { gun: GunId; mount: string };
    /** `calibration`: why the seat's yaw calibration was forgotten (a new mounting), or null */
    result: MountStep & { calibration: string | null };
  };
}

export type OpName = keyof Ops;
export type OpArgs<K extends OpName> = Ops[K]["args"];
export type OpResult<K extends OpName> = Ops[K]["result"];

/** `cmd/<client>/res` for op `K`: its result, or a coded error. */
export type OpResponse<K extends OpName> = { v: Version; id: string } & (
  | { ok: true; r: OpResult<K>; e?: undefined }
  | { ok: false; e: ResponseError; r?: undefined }
);
