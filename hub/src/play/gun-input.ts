// What paired guns send during play, taken from the hub's one ingest path (guns/streams.ts: decoded,
// mapped to the gun, with the hub's receive time): aim samples go straight on; a trigger event is passed
// on the first time it is seen since the gun connected (QoS 1 may deliver it twice).
import type { AimMsg, GunId, GunMs, HubMs, TriggerMsg } from "@cng/protocol";
import type { GunService } from "../guns/service.js";
import type { GunStreams } from "../guns/streams.js";

export interface GunInputHandlers {
  aim(gun: GunId, msg: AimMsg, hubRecv: number): void;
  /** a trigger event seen for the first time since the gun connected */
  trigger(gun: GunId, msg: TriggerMsg, hubRecv: number): void;
  /** the `time` answer sent at hub ms `h` reached the gun at its ms `a` */
  probe(gun: GunId, h: HubMs, a: GunMs): void;
}

/** Trigger numbers remembered per gun. */
const SEEN = 64;

export class GunInput {
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly streams: GunStreams,
    guns: GunService,
    private readonly handlers: GunInputHandlers,
  ) {
    // QoS 1 repeats are dropped by `n` within one connection; a reconnected gun counts from 1 again
    guns.onPresence((gun) => this.seen.delete(gun));
  }

  start(): void {
    this.streams.aimConsumer = (gun, _seat, msg, at) => this.handlers.aim(gun, msg, at);
    this.streams.triggerConsumer = (gun, _seat, msg, at) => this.onTrigger(gun, msg, at);
    this.streams.probeConsumer = (gun, h, a) => this.handlers.probe(gun, h, a);
  }

  close(): void {
    this.streams.aimConsumer = null;
    this.streams.triggerConsumer = null;
    this.streams.probeConsumer = null;
  }

  private onTrigger(gun: GunId, msg: TriggerMsg, at: number): void {
    const seen = this.seen.get(gun) ?? [];
    if (seen.includes(msg.n)) return;
    seen.push(msg.n);
    if (seen.length > SEEN) seen.shift();
    this.seen.set(gun, seen);
    this.handlers.trigger(gun, msg, at);
  }
}
