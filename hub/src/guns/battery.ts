// A gun's battery calibration (`gun.battery`): the host says what the battery really is now (a multimeter's volts,
// or "full": the LiPo curve's 100 %); the hub asks the gun for a fresh reading, works out the factor that makes the
// reading say so (shared/protocol/src/battery.ts), and sends it (`bat`): the gun keeps it in gun.json and answers
// with an info. A board whose firmware has no room for that ("batcal" not in its profile) is told the factor to
// flash instead.

import type { BatteryCalibrated, GunId, InfoMsg, Result } from "@cng/protocol";
import {
  BAT_CAL_K,
  BAT_CAL_V,
  batFactor,
  decodeGunError,
  gunTopic,
  LIPO_FULL_V,
  ok,
  parseTopic,
  refuse,
} from "@cng/protocol";
import { loadBoard } from "../boards/profile.js";
import type { Bus } from "../bus/bus.js";
import type { Logger } from "../log.js";
import type { GunService } from "./service.js";

interface Waiter {
  /** the info must carry this factor (a `bat` sent), or any info will do (undefined) */
  bk?: number;
  resolve: (i: InfoMsg | "refused" | null) => void;
}

export class BatteryCalibration {
  private readonly waiting = new Map<GunId, Waiter>();

  constructor(
    private readonly bus: Bus,
    private readonly table: string,
    private readonly guns: GunService,
    private readonly log: Logger,
    /** how long a gun has to answer */
    private readonly answerMs = 4000,
  ) {
    guns.onGunInfo((gun, info) => {
      const w = this.waiting.get(gun);
      if (!w || (w.bk !== undefined && info.bk !== w.bk)) return;
      this.waiting.delete(gun);
      w.resolve(info);
    });
  }

  async start(): Promise<void> {
    await this.bus.subscribe(gunTopic(this.table, "+", "err"), (topic, p) => {
      const t = parseTopic(topic);
      const d = decodeGunError(p);
      if (t?.kind !== "gun" || !d.ok || d.value.e !== "cmd" || !/^(unknown )?bat$/.test(d.value.m ?? "")) return;
      const w = this.waiting.get(t.gun);
      if (w?.bk === undefined) return;
      this.waiting.delete(t.gun);
      w.resolve("refused");
    });
  }

  /** Sends `body` and waits for the info that answers it (null: none in time; "refused": the gun said no). */
  private ask(gun: GunId, body: { c: "info" } | { c: "bat"; k: number }): Promise<InfoMsg | "refused" | null> {
    this.waiting.get(gun)?.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.waiting.get(gun) === w) this.waiting.delete(gun);
        resolve(null);
      }, this.answerMs);
      const w: Waiter = {
        bk: body.c === "bat" ? body.k : undefined,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      this.waiting.set(gun, w);
      this.guns.command(gun, body).catch((e) => {
        this.log.warn({ gun, err: (e as Error).message }, "could not send a battery command");
        w.resolve(null);
      });
    });
  }

  /** Calibrates `gun`'s battery reading to `volts` (undefined: the gun is full, the curve's 100 %). */
  async calibrate(gun: GunId, volts: number | undefined): Promise<Result<BatteryCalibrated>> {
    const v = volts ?? LIPO_FULL_V;
    if (!(v >= BAT_CAL_V[0] && v <= BAT_CAL_V[1]))
      return refuse("bad-args", `a LiPo reads ${BAT_CAL_V[0]}-${BAT_CAL_V[1]} V: ${v} V is not one`);
    const g = this.guns.registry.get(gun);
    if (!g?.paired) return refuse("unknown-gun", `${gun} is not paired`);
    if (!g.on) return refuse("offline", `${gun} is not connected`);
    const fresh = await this.ask(gun, { c: "info" });
    if (!fresh || fresh === "refused") return refuse("timeout", `${gun} did not send its info`);
    if (fresh.bv === undefined) {
      return refuse(
        "not-measured",
        fresh.b === "puckjs"
          ? `${gun} is a Puck.js: it gauges its own coin cell`
          : `${gun}'s battery is not measured (no divider: gun.json "bat": false, or a firmware without it)`,
      );
    }
    const k = batFactor(v, fresh.bv, fresh.bk);
    if (k === undefined) {
      const raw = fresh.bv / (fresh.bk ?? 1);
      return refuse(
        "battery",
        `${gun} reads ${fresh.bv} V where you say ${v} V: a factor of ${(v / raw).toFixed(3)}, beyond ` +
          `${BAT_CAL_K[0]}-${BAT_CAL_K[1]}: check the divider's resistors, its wires, and the figure`,
      );
    }
    let has: string[] | undefined;
    try {
      has = loadBoard(fresh.b).has ?? [];
    } catch {
      has = undefined;
    }
    if (has && !has.includes("batcal")) {
      return ok({
        gun,
        volts: v,
        flash: { bat: k, why: `the ${fresh.b} firmware has no room to take a calibration over the network` },
      });
    }
    const done = await this.ask(gun, { c: "bat", k });
    if (done === "refused") return refuse("battery", `${gun} refused the factor ${k}`);
    if (!done || done.bv === undefined || done.bk !== k)
      return refuse("timeout", `${gun} did not confirm the calibration`);
    this.log.info({ gun, volts: v, k, was: fresh.bv, now: done.bv }, "battery reading calibrated in the gun");
    return ok({
      gun,
      volts: v,
      was: { bv: fresh.bv, bat: fresh.bat },
      now: { bv: done.bv, bat: done.bat, bk: k },
    });
  }

  close(): void {
    for (const w of this.waiting.values()) w.resolve(null);
    this.waiting.clear();
  }
}
