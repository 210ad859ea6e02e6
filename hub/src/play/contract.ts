// The hub's own types for what it publishes about a game, held to the contract every reader decodes with
// (shared/protocol/src/table.ts): the table's status as play publishes it, the calibration wizard's view, the gun
// status the registry retains (the rules engine's views and events are the contract's own types). Each pair must be assignable both ways: when one side changes without the other, `tsc` fails here
// ("Type 'false' does not satisfy the constraint 'true'" names the pair). GameHost (game/host.ts) also builds
// `table/state` as the contract's TableStateMsg, so what the play service hands it is checked on the way out.
import type * as Wire from "@cng/protocol";
import type { HubGunStatus } from "../guns/registry.js";
import type { CalibrationView } from "./calibration.js";
import type { PlayStatus } from "./play.js";
import type { LayoutSpec } from "./setup.js";

/** true when A and B are each assignable to the other */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agree<T extends true> = T;

export type ContractChecks = [
  Agree<Same<PlayStatus, Wire.TableStatus>>,
  Agree<Same<CalibrationView, Wire.CalibrationInfo>>,
  Agree<Same<LayoutSpec, Wire.LayoutSpec>>,
  Agree<Same<HubGunStatus, Wire.HubGunStatusMsg>>,
];
