// Cues to guns: the feedback dispatcher's deliveries, mapped from seats to the guns sitting there, each with
// its own sequence number `n` per gun (so a QoS 1 repeat is recognisable as one).
import { type CueMsg, gunTopic } from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import type { CueDelivery } from "../feedback/index.js";
import type { Logger } from "../log.js";

export class CueSender {
  private readonly seq = new Map<string, number>();
  // starts from the clock so a restarted hub does not reuse numbers a connected gun has seen
  private readonly base = Math.floor(Date.now() / 1000) % 2 ** 30;

  constructor(
    private readonly bus: Bus,
    private readonly table: string,
    private readonly log: Logger,
    /** the guns a delivery goes to */
    private readonly gunsFor: (to: CueDelivery["to"]) => string[],
  ) {}

  /** Sends to the guns at the delivery's seat(s), or to `guns` when given (a paired gun with no seat). */
  send(d: CueDelivery, guns: readonly string[] = this.gunsFor(d.to)): void {
    for (const gun of guns) {
      const n = (this.seq.get(gun) ?? this.base) + 1;
      this.seq.set(gun, n);
      const msg: CueMsg = { v: 1, n, c: d.c };
      if (d.at !== undefined) msg.at = d.at;
      if (d.l) msg.l = d.l;
      if (d.b) msg.b = d.b;
      if (d.rp !== undefined) msg.rp = d.rp;
      this.bus.publish(gunTopic(this.table, gun, "cue"), msg, { qos: 1 }).catch((e) => {
        this.log.warn({ gun, err: (e as Error).message }, "could not send a cue");
      });
    }
  }
}
