// Guns' live streams into the hub: aim samples (QoS 0) and trigger events (QoS 1) from paired guns,
// decoded and handed to one consumer each (the table, during a game), and clock probes (`sync`),
// answered at once with `time` (a probe also says when the last answer arrived: the gun's downlink delay). This is the hot path — up to tens of thousands of aim samples a
// second — so no logging but for refusals (once per gun and error), no topic splitting per sample.
import {
  type AimMsg,
  decodeAim,
  decodeSync,
  decodeTrigger,
  type GunId,
  type GunMs,
  gunTopic,
  type HubMs,
  type TriggerMsg,
} from "@cng/protocol";
import { GunClock } from "../aim/index.js";
import { type Logger, OncePerKey, silentLogger } from "../log.js";
import type { Seat } from "../rules/index.js";
import type { GunRegistry } from "./registry.js";
import type { GunService } from "./service.js";

/** A decoded aim sample from a paired gun; `hubRecv` is the hub's clock when it arrived. */
export type AimConsumer = (gun: GunId, seat: Seat | null, msg: AimMsg, hubRecv: HubMs) => void;
/** A decoded trigger event from a paired gun (QoS 1 repeats included: the consumer drops them by `n`). */
export type TriggerConsumer = (gun: GunId, seat: Seat | null, msg: TriggerMsg, hubRecv: HubMs) => void;
/** A clock probe that says when the last `time` answer reached the gun: sent at hub ms `h`, there at gun ms `a`. */
export type ProbeConsumer = (gun: GunId, h: HubMs, a: GunMs) => void;

/** Counters, for benchmarks and the dashboard: read them, never reset them. */
export interface StreamStats {
  /** aim samples decoded and handed to the consumer (or dropped for want of one) */
  aim: number;
  trig: number;
  /** messages that did not decode */
  refused: number;
  /** messages from guns that are not paired (an external broker forwards them) */
  unpaired: number;
  /** messages under a paired gun's topics from a session that did not log in with its key */
  forged: number;
}

/**
 * Who sent a stream message, when the source knows (the embedded broker): the gun it logged in as and whether with its
 * key; null for anyone who is no gun. The topic alone is not trusted: a device still on a waiting gun's session after
 * the pairing speaks under the paired gun's topics.
 */
export type StreamSender = { gun: GunId; paired: boolean } | null;

/** Where the streams come from: the hub's MQTT client (an external broker's rights vouch for the topic), or the
 * embedded broker itself (no loopback), which says who sent each message. */
export interface StreamSource {
  subscribe(
    filter: string,
    handler: (topic: string, payload: Buffer, from?: StreamSender) => void,
    qos: 0 | 1,
  ): Promise<unknown>;
}

export class GunStreams {
  readonly stats: StreamStats = { aim: 0, trig: 0, refused: 0, unpaired: 0, forged: 0 };
  /** where aim samples go; null = nobody listens (they are counted and dropped) */
  aimConsumer: AimConsumer | null = null;
  /** where trigger events go; null = nobody listens (they are counted and dropped) */
  triggerConsumer: TriggerConsumer | null = null;
  /** where the guns' word on the last `time` answer goes (the table's downlink delays) */
  probeConsumer: ProbeConsumer | null = null;
  /** where pulls of guns asking to be paired go (pairing by pulling); never to the game */
  pendingTriggerConsumer: ((gun: GunId, msg: TriggerMsg) => void) | null = null;
  private readonly prefix: string;
  private readonly refusals: OncePerKey;
  /** each paired gun's clock as its stream shows it: told back in every `time` answer, the gun plays cues by it */
  private readonly clocks = new Map<GunId, GunClock>();

  constructor(
    private readonly source: StreamSource,
    table: string,
    private readonly registry: GunRegistry,
    private readonly guns: GunService,
    private readonly clock: () => number = Date.now,
    log: Logger = silentLogger(),
  ) {
    this.prefix = gunTopic(table, "", "aim").slice(0, -"/aim".length);
    this.refusals = new OncePerKey(log);
    // a gun that connects again may have rebooted: its clock starts over
    guns.onPresence((gun) => this.clocks.delete(gun));
  }

  async start(): Promise<void> {
    await this.source.subscribe(`${this.prefix}+/aim`, (topic, payload, from) => this.onAim(topic, payload, from), 0);
    await this.source.subscribe(
      `${this.prefix}+/trig`,
      (topic, payload, from) => this.onTrigger(topic, payload, from),
      1,
    );
    await this.source.subscribe(`${this.prefix}+/sync`, (topic, payload, from) => this.onSync(topic, payload, from), 0);
  }

  private refuse(gun: GunId, kind: string, code: string): void {
    this.stats.refused++;
    this.refusals.warn(`${kind}:${gun}:${code}`, { gun, kind, code }, "refused a gun message");
  }

  /** A clock probe: answered at once, so the gun's round trip (and its offset estimate) stays tight. */
  private onSync(topic: string, payload: Buffer, from: StreamSender | undefined): void {
    // whole ms, as the protocol has them (a clock a test drives may stand between two)
    const h = Math.floor(this.clock());
    const gun = this.pairedGun(topic, 4, from);
    if (gun === null) return;
    const d = decodeSync(payload);
    if (!d.ok) {
      this.refuse(gun, "sync", d.error.code);
      return;
    }
    const clock = this.clockOf(gun);
    clock.observe(d.value.t, h);
    const o = clock.offset;
    this.guns
      .command(gun, o === null ? { c: "time", g: d.value.t, h } : { c: "time", g: d.value.t, h, o })
      .catch(() => {});
    const { h: lastH, a } = d.value;
    if (lastH !== undefined && lastH > 0 && a !== undefined) this.probeConsumer?.(gun, lastH, a);
  }

  private clockOf(gun: GunId): GunClock {
    let c = this.clocks.get(gun);
    if (c === undefined) {
      c = new GunClock();
      this.clocks.set(gun, c);
    }
    return c;
  }

  /** The gun id in `…/gun/<id>/<leaf>`, when the gun is paired and (where the source says) sent it with its key. */
  private pairedGun(topic: string, leafLength: number, from: StreamSender | undefined): GunId | null {
    const id = topic.slice(this.prefix.length, topic.length - leafLength - 1);
    const g = this.registry.get(id);
    if (g?.paired !== true) {
      this.stats.unpaired++;
      return null;
    }
    if (from !== undefined && (from === null || from.gun !== id || !from.paired)) {
      this.stats.forged++;
      return null;
    }
    return id;
  }

  private onAim(topic: string, payload: Buffer, from: StreamSender | undefined): void {
    const gun = this.pairedGun(topic, 3, from);
    if (gun === null) return;
    const d = decodeAim(payload);
    if (!d.ok) {
      this.refuse(gun, "aim", d.error.code);
      return;
    }
    this.stats.aim++;
    const now = this.clock();
    this.clockOf(gun).observe(d.value.t, now);
    const c = this.aimConsumer;
    if (c !== null) c(gun, this.registry.get(gun)!.seat, d.value, now);
  }

  private onTrigger(topic: string, payload: Buffer, from: StreamSender | undefined): void {
    if (from?.paired === false) {
      // a waiting session that outlived its gun's pairing (the gun takes its key on a new one) pulls for no seat
      if (this.registry.get(from.gun)?.paired === true) this.stats.forged++;
      else {
        this.stats.unpaired++;
        this.onPendingTrigger(topic, payload, from.gun);
      }
      return;
    }
    const gun = this.pairedGun(topic, 4, from);
    if (gun === null) {
      if (from === undefined) this.onPendingTrigger(topic, payload, undefined);
      return;
    }
    const d = decodeTrigger(payload);
    if (!d.ok) {
      this.refuse(gun, "trig", d.error.code);
      return;
    }
    this.stats.trig++;
    const c = this.triggerConsumer;
    if (c !== null) c(gun, this.registry.get(gun)!.seat, d.value, this.clock());
  }

  /** A pull of a gun that is asking to be paired: only the pairing listener hears it. `sender`: who sent it, if known. */
  private onPendingTrigger(topic: string, payload: Buffer, sender: GunId | undefined): void {
    const c = this.pendingTriggerConsumer;
    const id = topic.slice(this.prefix.length, topic.length - 5);
    if (sender !== undefined && sender !== id) return;
    const g = this.registry.get(id);
    if (c === null || g === undefined || g.paired || !g.on) return;
    const d = decodeTrigger(payload);
    if (!d.ok) {
      this.refuse(id, "trig", d.error.code);
      return;
    }
    c(id, d.value);
  }
}
