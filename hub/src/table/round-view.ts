// What the table knows of the round at a moment, from the engine's state and the round's plan: who is alive, which
// guns are in play and whose they are, whose aim, courage and privilege are known, who poses to re-centre.
import { type AimOptions, inDoubt } from "../aim/index.js";
import { holdupBefore, type Seat, type State } from "../rules/index.js";
import { aimOfShooter, type SecondGuns, type Shooter, shooterOf } from "./guns.js";
import type { RoundPlan } from "./plan.js";
import type { TableConfig } from "./ports.js";
import type { SeatSensors } from "./sensors.js";

export interface RoundSource {
  /** the engine's state and the round's plan now (both are replaced as the game goes) */
  readonly state: State;
  readonly plan: RoundPlan;
}

export class RoundView {
  constructor(
    private readonly now: RoundSource,
    private readonly config: TableConfig,
    private readonly guns: SecondGuns,
    private readonly sensors: readonly SeatSensors[],
    private readonly aimOpts: AimOptions,
  ) {}

  alive(seat: Seat): boolean {
    return this.now.state.players[seat]?.alive === true;
  }

  aliveSeats(): Seat[] {
    const out: Seat[] = [];
    this.now.state.players.forEach((p, seat) => {
      if (p.alive) out.push(seat);
    });
    return out;
  }

  /** Whether the aim of the gun in this slot is known. */
  aimKnown(slot: Seat): boolean {
    const sh = this.shooter(slot);
    return this.now.plan.aims.has(slot) || sh === null || (this.sameRound() && aimOfShooter(this.now.state, sh) !== -2);
  }

  /** The shooter the gun in this slot acts as (null: a dead player's gun nobody took). */
  shooter(slot: Seat): Shooter | null {
    return shooterOf(this.now.state, this.guns, slot);
  }

  /**
   * Who points at the Godfather at this round's start: every gun ("pose"), only the guns whose offset is in doubt
   * (snapshots), asked before the round's first aim, or nobody ("none").
   */
  recentreSlots(): Seat[] {
    const slots = this.activeSlots();
    if (this.config.recentre === "pose") return slots;
    if (this.config.recentre === "none" || this.now.plan.aims.size > 0) return [];
    return slots.filter((slot) => {
      const track = this.sensors[slot]!.track;
      return track !== null && inDoubt(track, this.aimOpts);
    });
  }

  /** The slots of every gun in play: each living player's own, then any taken gun still armed. */
  activeSlots(): Seat[] {
    const out: Seat[] = [];
    for (let slot = 0; slot < this.now.state.players.length; slot++) if (this.shooter(slot) !== null) out.push(slot);
    return out;
  }

  courageKnown(seat: Seat): boolean {
    return this.now.plan.courage.has(seat) || (this.sameRound() && this.now.state.courage[seat] !== -1);
  }

  privilegeKnown(): boolean {
    return this.now.plan.privilege !== undefined || !holdupBefore(this.now.state.step, "reaim");
  }

  /** The seat's aim this round as far as the table knows it. */
  aimOf(seat: Seat): Seat | null {
    const plan = this.now.plan;
    if (plan.aims.has(seat)) return plan.aims.get(seat)!;
    const a = this.now.state.aim[seat]!;
    return a >= 0 ? a : null;
  }

  canReorder(gf: Seat, order: Seat, old: Seat | null): boolean {
    if (order === gf || !this.alive(order)) return false;
    return this.aliveSeats().some((t) => t !== order && t !== old);
  }

  private sameRound(): boolean {
    return this.now.state.round === this.now.plan.round;
  }
}
