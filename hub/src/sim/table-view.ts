// What a client sees of the table: `table/state` and a gun's retained status, in the contract's types
// (shared/protocol/src/table.ts; the bots read them through its strict decoders), under the names the simulator's
// bots and the demo read them by.
import type { GunStatusSeen, TableStateMsg } from "@cng/protocol";

export type { CalibrationInfo, SeatInfo } from "@cng/protocol";

/** `table/state` */
export type TableState = TableStateMsg;

/** What a reader needs of a retained gun status (`gun/<id>/status`). */
export type GunStatus = GunStatusSeen;
