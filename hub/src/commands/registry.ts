// Every op the hub answers, by name.
import type { OpContext } from "./context.js";
import { gunBattery } from "./ops/battery.js";
import { devicesEnrol, devicesList, devicesRevoke } from "./ops/devices.js";
import { gameDecide, gameHistory, gameList, gameNew, gameState } from "./ops/game.js";
import { gunForget, gunSeat, gunsList, pairAccept, pairListen, pairReject } from "./ops/guns.js";
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

// each op has its own argument type
export type AnyOp = Op<any, OpContext>;

export const OPS: AnyOp[] = [
  gunsList,
  pairAccept,
  pairReject,
  pairListen,
  gunForget,
  gunSeat,
  gunsUpdate,
  seatToken,
  devicesEnrol,
  devicesList,
  devicesRevoke,
  gameNew,
  gameDecide,
  gameState,
  gameList,
  gameHistory,
  roundStart,
  secretBullet,
  powerReveal,
  powerSpecialist,
  hostDecide,
  tableStatus,
  tableLang,
  calibrateStart,
  calibrateCancel,
  calibrateStatus,
  calibrateMount,
  gunBattery,
  gamePause,
  gameResume,
  gameUndo,
];

export function findOp(name: string): AnyOp | undefined {
  return OPS.find((o) => o.name === name);
}
