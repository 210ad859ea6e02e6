// The mounting step of the calibration wizard (`calibrate.mount`): asks a gun for gravity in its IMU chip's frame
// (`grav` → its `imu` answer) in two poses, works the mounting out (aim/mount.ts), and sends it to the gun (`mount`:
// the gun stores it in gun.json and uses it at once, answering on `imu` with the mounting it now runs).

import type { GunId, MountPose, MountStep, Result } from "@cng/protocol";
import { decodeImu, gunTopic, type ImuMsg, ok, parseTopic, refuse } from "@cng/protocol";
import { findMount, type GravReading, type MountResult, poseAxis } from "../aim/mount.js";
import { loadBoard } from "../boards/profile.js";
import type { Bus } from "../bus/bus.js";
import type { Logger } from "../log.js";
import type { GunService } from "./service.js";

interface Waiter {
  grav: boolean;
  resolve: (m: ImuMsg | null) => void;
}

export class MountWizard {
  /** pose A per gun, until pose B or a cancel */
  private readonly levels = new Map<GunId, { r: GravReading; was: string }>();
  private readonly waiting = new Map<GunId, Waiter>();

  constructor(
    private readonly bus: Bus,
    private readonly table: string,
    private readonly guns: GunService,
    private readonly log: Logger,
    /** how long a gun has to answer (a `grav` takes ≈ 0.5 s on the gun) */
    private readonly answerMs = 4000,
  ) {}

  async start(): Promise<void> {
    await this.bus.subscribe(gunTopic(this.table, "+", "imu"), (topic, p) => this.onImu(topic, p));
  }

  private onImu(topic: string, payload: Buffer): void {
    const t = parseTopic(topic);
    if (t?.kind !== "gun" || t.table !== this.table) return;
    const d = decodeImu(payload);
    if (!d.ok) {
      this.log.warn({ gun: t.gun, err: d.error }, "refused gun imu answer");
      return;
    }
    const w = this.waiting.get(t.gun);
    if (!w || w.grav !== (d.value.g !== undefined)) return;
    this.waiting.delete(t.gun);
    w.resolve(d.value);
  }

  /** Sends `grav` or `mount` and waits for the gun's answer (null: none in time). */
  private ask(gun: GunId, body: { c: "grav" } | { c: "mount"; m: string }): Promise<ImuMsg | null> {
    this.waiting.get(gun)?.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.waiting.get(gun) === w) this.waiting.delete(gun);
        resolve(null);
      }, this.answerMs);
      const w: Waiter = {
        grav: body.c === "grav",
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      this.waiting.set(gun, w);
      this.guns.command(gun, body).catch((e) => {
        this.log.warn({ gun, err: (e as Error).message }, "could not send an IMU command");
        w.resolve(null);
      });
    });
  }

  /** Why this gun cannot take the step now, or null. */
  private refusal(gun: GunId): Result<never> | null {
    const g = this.guns.registry.get(gun);
    if (!g?.paired) return refuse("unknown-gun", `${gun} is not paired`);
    if (!g.on) return refuse("offline", `${gun} is not connected`);
    const b = g.info?.b;
    let has: string[] | undefined;
    try {
      has = b ? (loadBoard(b).has ?? []) : undefined;
    } catch {
      has = undefined;
    }
    if (has && !has.includes("mount")) {
      return refuse(
        "no-mount",
        `the ${b} firmware cannot turn its IMU (left out for room): mount the chip x along the barrel, z up`,
      );
    }
    return null;
  }

  /** One step of the wizard for one gun: pose A (`level`), pose B (`up`, then the mounting is stored), or `cancel`. */
  async step(gun: GunId, pose: MountPose): Promise<Result<MountStep>> {
    if (pose === "cancel") {
      this.levels.delete(gun);
      return ok({ gun, pose });
    }
    const no = this.refusal(gun);
    if (no) return no;
    const a = pose === "up" ? this.levels.get(gun) : undefined;
    if (pose === "up" && !a) return refuse("mount", "take the level pose first");
    const m = await this.ask(gun, { c: "grav" });
    if (!m?.g) {
      return refuse("timeout", `${gun} did not report gravity (its firmware may predate mountings)`);
    }
    const r: GravReading = { g: m.g, sd: m.sd ?? 0 };
    if (pose === "level") {
      const p = poseAxis(r);
      if (!p.ok) return refuse("mount", `level pose: ${p.msg}`);
      this.levels.set(gun, { r, was: m.m });
      return ok({ gun, pose, up: p.up.name, tilt: Math.round(p.up.tilt), mount: m.m });
    }
    const found: MountResult = findMount(a!.r, r);
    if (!found.ok) {
      // a bad level pose means starting again; otherwise the pointing-up pose can be taken again
      if (found.pose === "level") this.levels.delete(gun);
      return refuse("mount", found.msg);
    }
    const done = await this.ask(gun, { c: "mount", m: found.mount });
    if (done?.m !== found.mount) {
      return refuse("timeout", `${gun} did not confirm the mounting ${found.mount}`);
    }
    this.levels.delete(gun);
    this.log.info({ gun, mount: found.mount, was: a!.was }, "IMU mounting stored in the gun");
    return ok({ gun, pose, mount: found.mount, was: a!.was, forward: found.up.name, up: found.level.name });
  }

  /** Sets a mounting the host names (`calibrate.mount` with `mount`): stored in the gun, in use at once. */
  async set(gun: GunId, mount: string): Promise<Result<MountStep>> {
    const no = this.refusal(gun);
    if (no) return no;
    const done = await this.ask(gun, { c: "mount", m: mount });
    if (done?.m !== mount) return refuse("timeout", `${gun} did not confirm the mounting ${mount}`);
    this.levels.delete(gun);
    this.log.info({ gun, mount }, "IMU mounting stored in the gun");
    return ok({ gun, pose: "set", mount });
  }

  close(): void {
    for (const w of this.waiting.values()) w.resolve(null);
    this.waiting.clear();
  }
}
