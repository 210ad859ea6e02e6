// What paired guns send during play: aim samples, trigger events and clock probes, decoded strictly and
// mapped to the gun's seat with the hub's receive time. A `sync` is answered here, at once, with `time`.
// Bad payloads are dropped (logged once per gun and error), never thrown.
import {
  type AimMsg,
  decodeAim,
  decodeSync,
  decodeTrigger,
  gunTopic,
  parseTopic,
  type TriggerMsg,
} from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import type { GunService } from "../guns/service.js";
import { type Logger, OncePerKey } from "../log.js";

export interface GunInputHandlers {
  aim(gun: string, msg: AimMsg, hubRecv: number): void;
  /** a trigger event seen for the first time since the gun connected */
  trigger(gun: string, msg: TriggerMsg, hubRecv: number): void;
}

/** Trigger numbers remembered per gun. */
const SEEN = 64;

export class GunInput {
  private readonly refusals: OncePerKey;
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly bus: Bus,
    private readonly table: string,
    private readonly guns: GunService,
    log: Logger,
    private readonly handlers: GunInputHandlers,
  ) {
    this.refusals = new OncePerKey(log);
    // QoS 1 repeats are dropped by `n` within one connection; a reconnected gun counts from 1 again
    guns.onPresence((gun) => this.seen.delete(gun));
  }

  async start(): Promise<void> {
    await this.bus.subscribe(gunTopic(this.table, "+", "sync"), (t, p) => this.onSync(t, p), 0);
    await this.bus.subscribe(gunTopic(this.table, "+", "aim"), (t, p) => this.onAim(t, p), 0);
    await this.bus.subscribe(gunTopic(this.table, "+", "trig"), (t, p) => this.onTrig(t, p), 1);
  }

  /** A paired gun's id from its topic, or null. */
  private pairedGun(topic: string): string | null {
    const t = parseTopic(topic);
    if (t?.kind !== "gun" || t.table !== this.table) return null;
    return this.guns.registry.isPaired(t.gun) ? t.gun : null;
  }

  private onSync(topic: string, payload: Buffer): void {
    const h = Date.now();
    const gun = this.pairedGun(topic);
    if (!gun) return;
    const d = decodeSync(payload);
    if (!d.ok) {
      this.refuse(gun, "sync", d.error.code);
      return;
    }
    this.guns.command(gun, { c: "time", g: d.value.t, h }).catch(() => {});
  }

  private onAim(topic: string, payload: Buffer): void {
    const at = Date.now();
    const gun = this.pairedGun(topic);
    if (!gun) return;
    const d = decodeAim(payload);
    if (!d.ok) {
      this.refuse(gun, "aim", d.error.code);
      return;
    }
    this.handlers.aim(gun, d.value, at);
  }

  private onTrig(topic: string, payload: Buffer): void {
    const at = Date.now();
    const gun = this.pairedGun(topic);
    if (!gun) return;
    const d = decodeTrigger(payload);
    if (!d.ok) {
      this.refuse(gun, "trig", d.error.code);
      return;
    }
    const seen = this.seen.get(gun) ?? [];
    if (seen.includes(d.value.n)) return;
    seen.push(d.value.n);
    if (seen.length > SEEN) seen.shift();
    this.seen.set(gun, seen);
    this.handlers.trigger(gun, d.value, at);
  }

  private refuse(gun: string, kind: string, code: string): void {
    this.refusals.warn(`${kind}:${gun}:${code}`, { gun, kind, code }, "refused a gun message");
  }
}
