// A gun's LiPo: what its volts mean. The gun reports the volts it reads (`bv` in info: through its divider, by its
// chip's ADC transfer, with its own calibration); the hub turns them into a charge level with this curve, and a gun
// checks an update against it. ES5: bundled into the firmware.
import type { InfoMsg } from "./messages.js";
import { OTA_LOW_BATTERY } from "./messages.js";

/**
 * Open-circuit volts of a single LiPo / Li-ion cell at 100, 90, …, 0 % of its charge, mV: the table Meshtastic's
 * firmware gauges single-cell boards with (its default OCV_ARRAY). A gun draws ≈ 0.15 A, a few tens of mV under it.
 */
export var LIPO_MV = [4190, 4050, 3990, 3890, 3800, 3720, 3630, 3530, 3420, 3300, 3100];

/** A LiPo just off its charger, volts: the curve's 100 % ("this gun is full" on Setup calibrates to it). */
export var LIPO_FULL_V = LIPO_MV[0] / 1000;

/** The charge left at `v` volts, percent 0–100 (whole), between the curve's points in a straight line. */
export function lipoPercent(v: number): number {
  var mv = v * 1000;
  var i: number;
  if (mv >= LIPO_MV[0]) return 100;
  for (i = 1; i < LIPO_MV.length; i++) {
    if (mv >= LIPO_MV[i]) return Math.round(100 - 10 * i + (10 * (mv - LIPO_MV[i])) / (LIPO_MV[i - 1] - LIPO_MV[i]));
  }
  return 0;
}

/** The volts at `pct` percent of the curve (a multiple of 10 lands on a point). */
export function lipoVolts(pct: number): number {
  var x = (100 - Math.max(0, Math.min(100, pct))) / 10;
  var i = Math.floor(x);
  var mv = i >= 10 ? LIPO_MV[10] : LIPO_MV[i] + (LIPO_MV[i + 1] - LIPO_MV[i]) * (x - i);
  return Math.round(mv) / 1000;
}

/** Lowest battery, volts, an update over the air starts at: the curve at OTA_LOW_BATTERY percent. */
export var OTA_LOW_VOLTS = /*#__PURE__*/ lipoVolts(OTA_LOW_BATTERY);

/** Lowest and highest true volts a host may calibrate a gun's battery reading to (a LiPo's working range). */
export var BAT_CAL_V = [3, 4.35];

/** Furthest a gun's reading may be scaled by its calibration: beyond it the divider or the ADC is wrong, not off. */
export var BAT_CAL_K = [0.8, 1.25];

/**
 * The calibration that makes a gun read `v` volts (the true ones) where it read `bv` with factor `bk`; undefined when
 * that is out of BAT_CAL_K (a wrong divider, a wrong figure) or the gun reads nothing.
 */
export function batFactor(v: number, bv: number | undefined, bk: number | undefined): number | undefined {
  if (!bv || !(v >= BAT_CAL_V[0] && v <= BAT_CAL_V[1])) return undefined;
  var k = Math.round(((bk || 1) * v * 10000) / bv) / 10000;
  return k >= BAT_CAL_K[0] && k <= BAT_CAL_K[1] ? k : undefined;
}

/**
 * A gun's info with its charge level: a board that gauges its own cell says `bat` (a Puck.js's coin cell); a LiPo
 * gun says `bv`, and its percent comes from the curve; neither: the battery is not measured.
 */
export function withCharge(info: InfoMsg): InfoMsg {
  if (info.bat !== undefined || info.bv === undefined) return info;
  var o: InfoMsg = {} as InfoMsg;
  var k: string;
  for (k in info) if (Object.prototype.hasOwnProperty.call(info, k)) (o as any)[k] = (info as any)[k];
  o.bat = lipoPercent(info.bv);
  return o;
}
