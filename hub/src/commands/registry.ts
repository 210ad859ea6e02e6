// Every op the hub answers, by name: one for each op of the protocol's map (a missing one fails `tsc`).
import type { OpName } from "@cng/protocol";
import { gunBattery } from "./ops/battery.js";
import { devicesEnrol, devicesList, devicesRevoke, loginFinish, loginStart } from "./ops/devices.js";
import { gameDecide, gameHistory, gameList, gameNew, gameState } from "./ops/game.js";
import { gunBridge, gunForget, gunSeat, gunsList, pairAccept, pairListen, pairReject } from "./ops/guns.js";
import { calibrateMount } from "./ops/mount.js";
import { gunsUpdate } from "./ops/ota.js";
import { seatToken } from "./ops/seats.js";
import {
  calibrateCancel,
  calibrateStart,
  calibrateStatus,
  gamePause,
  gameResume,
  gameUndo,
  hostDecide,
  powerReveal,
  powerSpecialist,
  roundStart,
  secretBullet,
  tableLang,
  tableStatus,
} from "./ops/table.js";
import type { Op } from "./types.js";

export const OPS: { readonly [K in OpName]: Op<K, unknown> } = {
  "guns.list": gunsList,
  "pair.accept": pairAccept,
  "pair.reject": pairReject,
  "pair.listen": pairListen,
  "gun.forget": gunForget,
  "gun.seat": gunSeat,
  "gun.bridge": gunBridge,
  "guns.update": gunsUpdate,
  "gun.battery": gunBattery,
  "seat.token": seatToken,
  "devices.enrol": devicesEnrol,
  "devices.list": devicesList,
  "devices.revoke": devicesRevoke,
  "login.start": loginStart,
  "login.finish": loginFinish,
  "game.new": gameNew,
  "game.decide": gameDecide,
  "game.state": gameState,
  "game.list": gameList,
  "game.history": gameHistory,
  "game.undo": gameUndo,
  "game.pause": gamePause,
  "game.resume": gameResume,
  "round.start": roundStart,
  "secret.bullet": secretBullet,
  "power.reveal": powerReveal,
  "power.specialist": powerSpecialist,
  "host.decide": hostDecide,
  "table.status": tableStatus,
  "table.lang": tableLang,
  "calibrate.start": calibrateStart,
  "calibrate.cancel": calibrateCancel,
  "calibrate.status": calibrateStatus,
  "calibrate.mount": calibrateMount,
};

/** The op of that name, or undefined (a name the map does not have, inherited object keys included). */
export function findOp(name: string): Op<OpName, unknown> | undefined {
  return isOpName(name) ? OPS[name] : undefined;
}

function isOpName(name: string): name is OpName {
  return Object.prototype.hasOwnProperty.call(OPS, name);
}
