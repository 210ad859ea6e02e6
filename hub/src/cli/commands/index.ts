import type { Command } from "commander";
import { benches } from "../../bench/index.js";
import { registerAcl } from "./acl.js";
import { registerBench } from "./bench.js";
import { registerBroker } from "./broker.js";
import { registerCheck } from "./check.js";
import { registerDemo } from "./demo.js";
import { registerFlash } from "./flash.js";
import { registerHub } from "./hub.js";
import { registerOta } from "./ota.js";
import { registerReplay } from "./replay.js";
import { registerRules } from "./rules.js";
import { registerSim } from "./sim.js";
import { registerVenue } from "./venue.js";

/** Adds one subcommand to the program. Each lives in its own module beside this one. */
export type RegisterCommand = (program: Command) => void;

/** Every working subcommand, one line each; none is listed before it works. */
export const commands: RegisterCommand[] = [
  // `cng bench` appears once a benchmark exists.
  ...(benches.length > 0 ? [registerBench] : []),
  registerRules,
  registerHub,
  registerReplay,
  registerAcl,
  registerBroker,
  registerFlash,
  registerCheck,
  registerOta,
  registerSim,
  registerDemo,
  registerVenue,
];
