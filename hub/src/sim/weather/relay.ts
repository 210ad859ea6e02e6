// A TCP relay that puts WiFi weather (profiles.ts) between clients and the broker. Each station (a gun, a phone)
// gets a listening port of its own, so its link has its own state: its jitter draws, its stalls, its wake phase,
// its drop-outs. Time is the table's Clock, so a relay runs in real time or on time a test drives.
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import type { Clock, TimerHandle } from "../../table/clock.js";
import { type Random, seededRandom } from "../prng.js";
import { LinkSchedule, wakesFor } from "./link.js";
import type { WeatherProfile } from "./profiles.js";

export interface StationOptions {
  /** whether the station's radio sleeps between wakes now (asked per segment to it); default: awake */
  sleeps?: () => boolean;
}

/** One-way delays a relay measured, ms: what the weather did, for the bench's figures. */
export interface DelayLog {
  up: number[];
  down: number[];
}

/** One of the relay's streams: a direction of one connection, in order. */
class Stream {
  private readonly queue: { at: number; data: Buffer | null }[] = [];
  private timer: TimerHandle | null = null;
  private dead = false;

  constructor(
    private readonly station: Station,
    private readonly dst: Socket,
    private readonly dir: "up" | "down",
  ) {}

  /** A segment read at `now`; null: the sender closed, pass the close on after what it sent. */
  push(data: Buffer | null): void {
    if (this.dead) return;
    const st = this.station;
    const now = st.clock.now();
    const at = st.deliverAt(this.dir, now);
    if (data !== null) st.delays[this.dir].push(at - now);
    this.queue.push({ at, data });
    this.arm();
  }

  private arm(): void {
    if (this.timer !== null || this.queue.length === 0 || this.dead) return;
    const clock = this.station.clock;
    const due = Math.max(this.queue[0]!.at, this.station.outUntil);
    this.timer = clock.setTimer(Math.max(0, due - clock.now()), () => {
      this.timer = null;
      this.flush();
    });
  }

  private flush(): void {
    const st = this.station;
    const now = st.clock.now();
    if (now < st.outUntil) {
      this.arm();
      return;
    }
    while (this.queue.length > 0 && this.queue[0]!.at <= now + 0.5) {
      const { data } = this.queue.shift()!;
      if (this.dst.destroyed) continue;
      if (data === null) this.dst.end();
      else this.dst.write(data);
    }
    this.arm();
  }

  /** The link is gone: what is in the air is lost. */
  kill(): void {
    this.dead = true;
    this.queue.length = 0;
    if (this.timer !== null) this.station.clock.clearTimer(this.timer);
    this.timer = null;
  }
}

interface Connection {
  client: Socket;
  broker: Socket;
  up: Stream;
  down: Stream;
}

export class Station {
  readonly delays: DelayLog = { up: [], down: [] };
  /** the station's link is down until then (a drop-out): nothing moves either way */
  outUntil = Number.NEGATIVE_INFINITY;
  /** drop-outs so far, and how many of them made the station reconnect */
  dropouts = 0;
  disassociations = 0;
  private readonly up: LinkSchedule;
  private readonly down: LinkSchedule;
  private readonly conns = new Set<Connection>();
  private readonly random: Random;
  private dropTimer: TimerHandle | null = null;
  private closed = false;
  /** the link was lost long enough that the station gave it up: it cannot connect until the drop-out ends */
  private disassociated = false;

  private constructor(
    readonly name: string,
    readonly server: Server,
    readonly clock: Clock,
    private readonly weather: WeatherProfile,
    private readonly target: { host: string; port: number },
    seed: number,
    private readonly o: StationOptions,
  ) {
    this.random = seededRandom(seed);
    const wake = wakesFor(weather.dtim, this.random);
    this.up = new LinkSchedule(weather.up, this.random);
    this.down = new LinkSchedule(weather.down, this.random, wake);
    server.on("connection", (s) => this.accept(s));
    this.scheduleDropout();
  }

  static async open(
    name: string,
    clock: Clock,
    weather: WeatherProfile,
    target: { host: string; port: number },
    seed: number,
    o: StationOptions,
  ): Promise<Station> {
    const server = createServer({ noDelay: true });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return new Station(name, server, clock, weather, target, seed, o);
  }

  /** The port the station's client connects to. */
  get port(): number {
    const a = this.server.address();
    if (a === null || typeof a === "string") throw new Error("the relay is not listening");
    return a.port;
  }

  deliverAt(dir: "up" | "down", now: number): number {
    if (dir === "up") return this.up.deliver(now);
    return this.down.deliver(now, this.o.sleeps?.() === true);
  }

  private accept(client: Socket): void {
    if (this.closed || this.disassociated) {
      // no link: nothing to connect over
      client.destroy();
      return;
    }
    client.setNoDelay(true);
    const broker = tcpConnect({ host: this.target.host, port: this.target.port });
    broker.setNoDelay(true);
    const c: Connection = {
      client,
      broker,
      up: new Stream(this, broker, "up"),
      down: new Stream(this, client, "down"),
    };
    this.conns.add(c);
    client.on("data", (d: Buffer) => c.up.push(d));
    broker.on("data", (d: Buffer) => c.down.push(d));
    client.on("end", () => c.up.push(null));
    broker.on("end", () => c.down.push(null));
    const gone = () => {
      if (client.destroyed && broker.destroyed) this.conns.delete(c);
    };
    // a reset is no segment: it ends the other side at once
    client.on("error", () => broker.destroy());
    broker.on("error", () => client.destroy());
    client.on("close", () => {
      if (!broker.destroyed && broker.readyState !== "open") broker.destroy();
      gone();
    });
    broker.on("close", () => {
      if (!client.destroyed) client.destroy();
      gone();
    });
  }

  private scheduleDropout(): void {
    const d = this.weather.dropouts;
    if (d === null || this.closed) return;
    const wait = -d.meanEveryMs * Math.log(1 - this.random());
    this.dropTimer = this.clock.setTimer(wait, () => {
      const len = d.minMs + (d.maxMs - d.minMs) * this.random();
      this.dropout(len);
    });
  }

  /** The station's link is lost for `ms` from now (the profile's drop-outs; tests call it directly). */
  dropout(ms: number): void {
    const d = this.weather.dropouts;
    const clock = this.clock;
    this.dropouts++;
    this.outUntil = Math.max(this.outUntil, clock.now() + ms);
    const disassociateMs = d?.disassociateMs ?? 6000;
    if (ms >= disassociateMs) {
      clock.setTimer(disassociateMs, () => {
        if (this.closed) return;
        this.disassociations++;
        this.disassociated = true;
        // the station's stack gives up its sockets; the laptop's end hears nothing and finds out on its own
        for (const c of this.conns) {
          c.up.kill();
          c.down.kill();
          c.client.destroy();
        }
      });
    }
    clock.setTimer(ms, () => {
      this.disassociated = false;
      this.scheduleDropout();
    });
  }

  /** Connections open now (the client's end). */
  get open(): number {
    let n = 0;
    for (const c of this.conns) if (!c.client.destroyed) n++;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.dropTimer !== null) this.clock.clearTimer(this.dropTimer);
    for (const c of this.conns) {
      c.up.kill();
      c.down.kill();
      c.client.destroy();
      c.broker.destroy();
    }
    this.conns.clear();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** Stations in one weather, each a port of its own in front of one broker. */
export class WeatherRelay {
  private readonly stations: Station[] = [];

  constructor(
    readonly weather: WeatherProfile,
    private readonly target: { host: string; port: number },
    readonly clock: Clock,
    private readonly seed = 1,
  ) {}

  /** Opens a station; its client connects to `127.0.0.1:<station.port>`. */
  async station(name: string, o: StationOptions = {}): Promise<Station> {
    let h = this.seed * 2654435761;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
    const s = await Station.open(name, this.clock, this.weather, this.target, h >>> 0, o);
    this.stations.push(s);
    return s;
  }

  /** Every station's one-way delays, together. */
  delays(filter: (s: Station) => boolean = () => true): DelayLog {
    const out: DelayLog = { up: [], down: [] };
    for (const s of this.stations)
      if (filter(s)) {
        for (const x of s.delays.up) out.up.push(x);
        for (const x of s.delays.down) out.down.push(x);
      }
    return out;
  }

  get all(): readonly Station[] {
    return this.stations;
  }

  async close(): Promise<void> {
    await Promise.all(this.stations.splice(0).map((s) => s.close()));
  }
}
