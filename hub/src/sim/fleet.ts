// N virtual guns, each running the real firmware bundle on a virtual Espruino board, held by a simulated hand.
// The fleet pairs them through the host (pair.accept with the PIN) at seats 0..N−1 exactly as a person would
// with hardware, calibrates them through the wizard (aim at the named seat, pull), and leaves them streaming.

import { createHash } from "node:crypto";
import { decodeGunStatus, decodeTableState, type GunId, gunTopic, tableTopic } from "@cng/protocol";
import { bearings, roundTable, type SeatLayout } from "../aim/index.js";
import type { Seat } from "../rules/index.js";
import type { SerialGunBridge } from "../serial/index.js";
import { type Clock, RealClock } from "../table/clock.js";
import { bridgeCredentialsOf, CommandClient } from "./commands.js";
import { Ears } from "./ears.js";
import { bridgeGun, createGun, type Gun, type GunRuntime, needsBridge, radioSleeps } from "./espruino/index.js";
import { Hand, scaledTraits } from "./hand.js";
import {
  aimBearing,
  bodyBearing,
  DEFAULT_HUMAN,
  drawImuErrors,
  drawTable,
  type HumanTraits,
  IMU_ERRORS,
  type Person,
  type SensorTraits,
  slowHeadingError,
} from "./human.js";
import { gaussian, type Random, seededRandom } from "./prng.js";
import type { CalibrationInfo, GunStatus, TableState } from "./table-view.js";
import { everyOn, waitOn } from "./wait.js";
import type { Station, WeatherRelay } from "./weather/relay.js";

export interface FleetOptions {
  /** the hub's MQTT broker, mqtt://host:port */
  url: string;
  table?: string;
  /** host PIN */
  pin: string;
  guns: number;
  /** board profile of every gun, a comma-separated list taken in turn, or "mixed": MPU-6050 and BNO085 boards */
  board?: string;
  /** where the guns' firmware runs: Node's vm (default) or the real Espruino interpreter */
  runtime?: GunRuntime;
  seed?: number;
  /** where the seats are (default: a round table of `guns`) */
  layout?: SeatLayout;
  traits?: HumanTraits;
  /** the people who watch their gun's colour correct a wrong one (default true; whether someone looks is their trait) */
  feedback?: boolean;
  /**
   * each chip's heading error beyond its model's noise: the scale factor and the slowly varying error of an MPU-6050 or
   * a BNO085 (sim/human.ts IMU_ERRORS), put into the motion the chip reads
   */
  imuErrors?: boolean;
  /** white noise σ on each BNO085's reported yaw, degrees per frame (MPU-6050 boards fuse their own: none added) */
  yawNoise?: number;
  /** the people's time scale (1 = real people; < 1 quicker, for fast demos) */
  tempo?: number;
  /** gun ids are `<prefix><seat>` */
  idPrefix?: string;
  /** the broker login of the host's client (default: `host` with the PIN, the embedded broker's) */
  login?: { username: string; password: string };
  /** lets the guns in before they connect (a dynamic-security broker: broker/dynsec-admin.ts admitGun) */
  admit?: (guns: { gun: GunId; secret: string }[]) => Promise<void>;
  log?: (line: string) => void;
  /**
   * the people's and the guns' time (default: real). A clock the hub shares (`HubOptions.clock`) and a test drives
   * plays a whole game in a fraction of its time; the guns' firmware then runs in the vm on it.
   */
  clock?: Clock;
  /**
   * the WiFi between the guns and the broker: each gun connects through a station of its own, whose downlink waits
   * for the gun's wakes while its firmware lets the radio sleep (the board says). The people at the table are not
   * behind it: they hear the count from the guns and see the laptop's screen, whatever their phones' network does
   */
  weather?: WeatherRelay;
}

export interface SimGun {
  seat: Seat;
  id: string;
  gun: Gun;
  hand: Hand;
  /** bearings from this seat to each seat (NaN for itself), table degrees */
  bearings: readonly number[];
  /** bearing to the table's centre */
  centre: number;
  random: Random;
  /** the person holding it: how they draw, their biases, whether they watch the gun's colour */
  person: Person;
  /** they react to the colour (a person who looks, at a table that lets them) */
  looks: boolean;
  /** where the person points for one hold at a seat: their biases, the hold's scatter, the target's lean (degrees) */
  aimAt(target: Seat): number;
  /** where the person knows a seat's body is, from their gun (no error) */
  towards(target: Seat): number;
  /** what the people at the table hear */
  ears: Ears;
}

const MIXED = ["esp32-mpu6050", "esp32-bno085"];

/** A simulator's client id (a topic level, ≤ 32): per table, so two tables' simulators can share one broker. */
export function simClientId(kind: string, table: string): string {
  return `sim-${kind}-${process.pid}-${createHash("sha1").update(table).digest("hex").slice(0, 4)}`;
}

/** What every seat's gun is made from: the broker's address, the seed, the bearings, the people, the secrets. */
interface SeatingContext {
  u: URL;
  seed: number;
  rows: ReturnType<typeof bearings>;
  traits: HumanTraits;
  people: Person[];
  seats: SeatLayout["seats"];
  secretOf: (id: string) => string;
}

export class Fleet {
  readonly guns: SimGun[] = [];
  readonly status = new Map<string, GunStatus>();
  /** how many times each gun was seen going offline */
  readonly drops = new Map<string, number>();
  state: TableState | null = null;
  /** the people's and the guns' time */
  readonly clock: Clock;
  private readonly timers: (() => void)[] = [];
  /** the serial bridges of guns without WiFi (a Puck.js on Bluetooth), as the hub's laptop would run them */
  private readonly bridges: SerialGunBridge[] = [];
  /** each gun's station in the weather, by gun id */
  readonly stations = new Map<string, Station>();
  /** the count's beats as the people hear them */
  readonly ears: Ears;

  private constructor(
    readonly host: CommandClient,
    readonly table: string,
    readonly layout: SeatLayout,
    private readonly o: FleetOptions,
  ) {
    this.clock = o.clock ?? new RealClock();
    this.ears = new Ears(this.clock);
  }

  static async start(o: FleetOptions): Promise<Fleet> {
    const table = o.table ?? "main";
    const host = await CommandClient.connect(o.url, {
      table,
      clientId: simClientId("host", table),
      username: o.login?.username ?? "host",
      password: o.login?.password ?? o.pin,
      auth: o.pin,
    });
    const fleet = new Fleet(host, table, o.layout ?? roundTable(o.guns), o);
    try {
      await host.subscribeDecoded(gunTopic(table, "+", "status"), decodeGunStatus, (s, topic) => {
        const id = topic.split("/").at(-2)!;
        fleet.status.set(id, s);
        if (!s.on) fleet.drops.set(id, (fleet.drops.get(id) ?? 0) + 1);
      });
      await host.subscribeDecoded(tableTopic(table, "state"), decodeTableState, (s) => {
        fleet.state = s;
      });
      await fleet.pairAll();
    } catch (e) {
      await fleet.stop();
      throw e;
    }
    return fleet;
  }

  private log(line: string): void {
    this.o.log?.(line);
  }

  private idOf(seat: Seat): string {
    return `${this.o.idPrefix ?? "sim"}${seat}`;
  }

  /** One seat's gun (its board, its IMU's own errors, its relay station in weather) and the person holding it. */
  private async addGun(seat: Seat, ctx: SeatingContext): Promise<void> {
    const { u, seed, rows, traits, people, seats, secretOf } = ctx;
    const id = this.idOf(seat);
    const random = seededRandom(seed * 1009 + seat * 7919 + 1);
    const boards = this.o.board === "mixed" || this.o.board === undefined ? MIXED : this.o.board.split(",");
    const board = boards[seat % boards.length]!;
    const p = this.layout.seats[seat]!;
    const centre = (Math.atan2(-p.y, -p.x) * 180) / Math.PI;
    let made: Gun | undefined;
    const station = this.o.weather
      ? await this.o.weather.station(id, { sleeps: () => radioSleeps(made?.wifi.powersave ?? null) })
      : undefined;
    const gun = await createGun({
      runtime: this.o.runtime,
      ...(this.o.clock ? { clock: this.o.clock } : {}),
      board,
      config: {
        id,
        secret: secretOf(id),
        table: this.table,
        hub: station ? { host: "127.0.0.1", port: station.port } : { host: u.hostname, port: Number(u.port || 1883) },
        hz: 25,
      },
      imu: {
        gyroBias: [gaussian(random) * 0.3, gaussian(random) * 0.3, gaussian(random) * 0.3],
        gyroNoise: 0.05,
        accelNoise: 0.004,
        ...(this.o.yawNoise ? { yawNoise: this.o.yawNoise } : {}),
        seed: seed * 131 + seat,
      },
    });
    made = gun;
    if (station) this.stations.set(id, station);
    if (needsBridge(gun))
      this.bridges.push(
        await bridgeGun(gun, {
          mqttUrl: this.o.url,
          table: this.table,
          credentials: bridgeCredentialsOf(this.host),
        }),
      );
    const hand = new Hand(gun, random, { ...traits }, centre, this.clock);
    const person = people[seat]!;
    if (this.o.imuErrors) this.chipErrors(gun, seed * 337 + seat, centre);
    const personal = seededRandom(seed * 6007 + seat * 31 + 5);
    gun.onTone((e) => this.ears.tone(e.f, hand.hubMs(e.t)));
    this.guns.push({
      seat,
      id,
      gun,
      hand,
      bearings: rows[seat]!,
      centre,
      random,
      person,
      looks: person.looks && this.o.feedback !== false,
      aimAt: (target) => aimBearing(personal, person, seats, seat, target, people[target]!.leanM),
      towards: (target) => bodyBearing(seats, person, seat, target, people[target]!.leanM),
      ears: this.ears,
    });
    // the gyro bias wanders with temperature: what the hub's per-round re-centre is for
    this.timers.push(
      everyOn(this.clock, 2000, () => {
        gun.imu.gyroBias[2] += 0.004 * gaussian(random);
      }),
    );
  }

  private async pairAll(): Promise<void> {
    const { guns: listed } = await this.host.request("guns.list");
    const u = new URL(this.o.url);
    const seed = this.o.seed ?? 1;
    const rows = bearings(this.layout);
    const tempo = this.o.tempo ?? 1;
    const traits = scaledTraits(this.o.traits ?? DEFAULT_HUMAN, tempo);
    // the people: drawn apart from the guns' and hands' randomness, so a table of today's people plays as before
    const people = drawTable(seededRandom(seed * 4241 + 3), traits, this.o.guns);
    const seats = this.layout.seats;
    const secretOf = (id: string) => `factory-${id}-${seed}`;
    const ids = Array.from({ length: this.o.guns }, (_, seat) => this.idOf(seat));
    // a gun of an earlier run keeps its old key in that run's storage: start it afresh
    // (on an external broker a gun of an earlier run may still be listed as asking, from its retained info)
    for (const id of ids) {
      const old = listed.find((g) => g.id === id);
      if (old) await this.host.request(old.paired ? "gun.forget" : "pair.reject", { gun: id });
      this.status.delete(id);
    }
    await this.o.admit?.(ids.map((gun) => ({ gun, secret: secretOf(gun) })));
    const table: SeatingContext = { u, seed, rows, traits, people, seats, secretOf };
    for (let seat = 0; seat < this.o.guns; seat++) await this.addGun(seat, table);
    await Promise.all(this.guns.map((g) => this.pair(g)));
    this.log(`${this.guns.length} virtual guns paired and online`);
  }

  /**
   * The chip's own heading error on top of what its model does: a scale factor and a slowly varying error (the
   * warm-up drift is the MPU model's own wandering bias, which the firmware estimates), in the motion it reads.
   */
  private chipErrors(gun: Gun, seed: number, centre: number): void {
    const kind = gun.board.imu.kind === "bno085" ? "bno085" : "mpu6050";
    const e: SensorTraits = {
      offsetDeg: 0,
      biasDegPerS: 0,
      noiseDeg: 0,
      tiltNoiseDeg: 0,
      ...drawImuErrors(seededRandom(seed), { ...IMU_ERRORS[kind], warmDegPerS: 0 }, centre),
    };
    const truth = gun.imu.motion;
    gun.imu.motion = (t) => {
      const p = truth(t);
      return { ...p, yaw: p.yaw + slowHeadingError(e, p.yaw, t * 1000) };
    };
  }

  private async pair(g: SimGun): Promise<void> {
    await waitOn(this.clock, `${g.id} to ask for pairing`, 15_000, () => {
      const s = this.status.get(g.id);
      return s && s.paired === false;
    });
    const drops = this.drops.get(g.id) ?? 0;
    await this.host.request("pair.accept", { gun: g.id, seat: g.seat });
    // the gun takes its key and comes back with it: online again after one drop
    await waitOn(this.clock, `${g.id} to reconnect with its key`, 15_000, () => (this.drops.get(g.id) ?? 0) > drops);
    await this.online(g);
  }

  /** Resolves when the gun is paired and connected. */
  online(g: SimGun, ms = 15_000): Promise<true> {
    return waitOn(this.clock, `${g.id} to be online`, ms, () => {
      const s = this.status.get(g.id);
      return !!(s?.paired && s.on);
    });
  }

  /** Runs the calibration wizard for every gun: aim at each named seat, pull; again if the hub asks. */
  async calibrate(poses: 1 | 2 | 3 = 1, timeoutMs = 60_000): Promise<CalibrationInfo[]> {
    const done = new Map<number, string>();
    await this.host.request("calibrate.start", { poses });
    const acting = new Set<number>();
    const result = await waitOn(this.clock, "the calibration", timeoutMs, () => {
      const cal = this.state?.calibration ?? [];
      if (cal.length < this.guns.length) return null;
      for (const c of cal) {
        const g = this.guns[c.seat];
        if (!g || c.next === null || acting.has(c.seat)) continue;
        const key = `${c.next}:${c.poses}:${c.result?.verdict ?? ""}`;
        if (done.get(c.seat) === key) continue;
        done.set(c.seat, key);
        acting.add(c.seat);
        const next = c.next;
        g.hand.aim(g.aimAt(next), this.clock.now());
        const wait = g.hand.settledAtHub() + 300 - this.clock.now();
        void g.hand.pull(wait).then(() => {
          // the next pose shows up in the state once the hub took this pull
          this.clock.setTimer(150, () => acting.delete(c.seat));
          // no news in a while (the gun blinked amber: no steady reading): aim and pull again, as a person would
          this.clock.setTimer(3000, () => {
            if (done.get(c.seat) === key) done.delete(c.seat);
          });
        });
      }
      return cal.every((c) => c.result?.verdict === "ok") ? cal : null;
    }).catch((e: Error) => {
      const open = (this.state?.calibration ?? []).filter((c) => c.result?.verdict !== "ok");
      const says = open.map(
        (c) => `seat ${c.seat} at seat ${c.next} after ${c.poses} poses (${c.result?.verdict ?? "-"})`,
      );
      throw new Error(`${e.message}: ${says.join(", ") || "no calibration in the table's state"}`);
    });
    for (const g of this.guns) g.hand.hold(g.centre, this.clock.now());
    this.log(`calibrated: ${result.map((c) => `seat ${c.seat} offset ${c.result!.offset.toFixed(1)}°`).join(", ")}`);
    return result;
  }

  async stop(): Promise<void> {
    for (const stop of this.timers) stop();
    for (const g of this.guns) g.gun.stop();
    await Promise.all(this.bridges.splice(0).map((b) => b.close()));
    await this.host.close();
  }
}
