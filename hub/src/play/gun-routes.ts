// Where a paired gun's input goes during play: its aim to the calibration wizard, to table/aim's live yaw and to the
// running table; its pulls to the wizard, the table, or a flash that says it is heard; its clock probes to the
// table. Input from a gun with no seat is dropped (a pull still flashes it, so the host can tell it is heard).
import type { GunId } from "@cng/protocol";
import { type FeedbackDispatcher, seatColour } from "../feedback/index.js";
import type { Seat } from "../rules/index.js";
import type { CalibrationWizard } from "./calibration.js";
import type { GunCalibrations } from "./calibrations.js";
import type { GunInputHandlers } from "./gun-input.js";
import type { TablePublisher } from "./publisher.js";
import type { RunningTable } from "./running-table.js";
import type { SeatedGuns } from "./seated-guns.js";

export interface GunRoutes {
  seated: SeatedGuns;
  running: RunningTable;
  wizard: CalibrationWizard;
  publisher: TablePublisher;
  cals: GunCalibrations;
  dispatcher: FeedbackDispatcher;
  /** flashes a gun that has no seat */
  identSeatless(gun: GunId): void;
}

export function gunRoutes(x: GunRoutes): GunInputHandlers {
  const { seated, running, wizard, dispatcher } = x;
  return {
    aim: (gun, m, at) => {
      const seat = seated.seatOf(gun);
      if (seat === null) return;
      wizard.aim(seat, m);
      x.publisher.yaw(seat, m.y + x.cals.offset(gun));
      if (running.paused) return;
      running.guard(() => running.table?.aim(seat, { t: m.t, yaw: m.y, pitch: m.p, roll: m.r, still: m.s === 1 }, at));
    },
    trigger: (gun, m) => {
      const seat = seated.seatOf(gun);
      if (seat === null) {
        if (m.k === "p") x.identSeatless(gun);
        return;
      }
      const table = running.table;
      if (wizard.active(seat)) wizard.pull(seat, m);
      else if (running.paused) dispatcher.cue(seat, "err");
      else if (table) {
        running.guard(() => table.trigger(seat, { n: m.n, k: m.k, t: m.t }));
        if (m.k === "h") tellTarget(x, seat);
      }
      // no game: a pull flashes the gun in its seat colour, so a player can check it is paired and heard
      else if (m.k === "p") dispatcher.cue(seat, "ident", { colour: seatColour(seat) });
    },
    probe: (gun, h, a) => {
      const seat = seated.seatOf(gun);
      if (seat !== null) running.guard(() => running.table?.probe(seat, h, a));
    },
  };
}

/**
 * The trigger held while aiming: the gun blinks its target's seat number (1 = the first seat) in that seat's
 * colour — the colour alone is not enough for a colour-blind player. Not in a window where pulls count.
 */
function tellTarget(x: GunRoutes, seat: Seat): void {
  const t = x.running.table;
  const kind = t?.status.activity?.kind;
  if (!t || kind === "reveal" || kind === "phone" || kind === "privilege" || kind === "recentre") return;
  const target = t.status.live[seat] ?? null;
  if (target === null) x.dispatcher.cue(seat, "ambig");
  else x.dispatcher.cue(seat, "ident", { colour: seatColour(target), times: target + 1 });
}
