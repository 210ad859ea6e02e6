// The paired guns by seat, as the gun registry has them: which gun sits where, which seats are on, and which guns a
// cue to a seat (or to all) reaches.
import type { GunId } from "@cng/protocol";
import { seatColour } from "../feedback/index.js";
import type { GunService } from "../guns/service.js";
import type { Seat } from "../rules/index.js";

export class SeatedGuns {
  constructor(private readonly guns: GunService) {}

  /** every paired gun with a seat */
  all(): { seat: Seat; gun: GunId }[] {
    return this.guns.registry
      .all()
      .filter((g) => g.paired && g.seat !== null)
      .map((g) => ({ seat: g.seat!, gun: g.id }));
  }

  seatOf(gun: GunId): Seat | null {
    const g = this.guns.registry.get(gun);
    return g?.paired ? g.seat : null;
  }

  /** The gun at a seat: an online one first. */
  at(seat: Seat): string | null {
    const at = this.guns.registry.all().filter((g) => g.paired && g.seat === seat);
    return (at.find((g) => g.on) ?? at[0])?.id ?? null;
  }

  online(seat: Seat): boolean {
    return this.guns.registry.all().some((g) => g.paired && g.seat === seat && g.on);
  }

  /** The seats as table/state shows them: the player, the gun and whether it is on; `guns2`: taken guns. */
  view(names: readonly string[], count: number, guns2: readonly { seat: Seat; from: Seat }[]) {
    return Array.from({ length: count }, (_, seat) => ({
      seat,
      name: names[seat] ?? null,
      gun: this.at(seat),
      colour: seatColour(seat),
      online: this.online(seat),
      // You-don't-need-it-anymore: this dead seat's gun is now that seat's gun 2 (it stays paired here)
      gun2Of: guns2.find((g) => g.from === seat)?.seat ?? null,
    }));
  }

  /** The online guns a cue to `to` reaches (`all`: every seat below `seats`). */
  cueTargets(to: Seat | "all", seats: number): string[] {
    const reg = this.guns.registry.all().filter((g) => g.paired && g.seat !== null && g.on);
    return reg.filter((g) => (to === "all" ? g.seat! < seats : g.seat === to)).map((g) => g.id);
  }
}
