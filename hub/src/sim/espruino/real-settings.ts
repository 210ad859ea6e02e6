// What the real interpreter's board (firmware/espruino/board.js) is told of itself: `__c`, the first line of its
// `.boot0`, made from the gun's profile and the options the harness started it with.

import { type ChipAdc, imuOf, loadChip, partPins } from "../../boards/chips.js";
import type { BoardProfile } from "../../boards/profile.js";
import type { GunOptions } from "./gun.js";
import { mountAxesOf } from "./imu.js";
import { boardBoot } from "./interpreter.js";
import type { Pose } from "./motion.js";

/** `__c` of firmware/espruino/board.js. */
export interface BoardSettings {
  chip: string;
  trig: BoardProfile["trig"];
  /** the buzzer's pin */
  bz: string;
  /** the battery: its pin, divider, volts and the ADC reading it; a Puck.js's coin cell: its volts */
  bat?: { pin?: string; div?: number; v: number; adc?: ChipAdc; vref?: number };
  led: { kind: string; pin?: string; pr?: string; pg?: string; pb?: string; inv: boolean };
  /**
   * the chip and how it sits in the simulated gun (its mountAxes): the chips read the motion turned by it; its bus
   * and model (hardware/imus), which the board attaches
   */
  imu: { kind: string; bus: string; model: string; addr?: number; ser?: string; axes: number[]; who: number };
  /** what the chip's Espruino does with its pins (hardware/chips.json): DAC pins, serial ports' default pins */
  cf: { dac: number[]; ser: Record<string, { tx: number; rx: number }> };
  /** each pin a part hangs on, and which part */
  parts: Record<string, string>;
  /** the pose at boot: yaw, pitch, roll */
  pose: [number, number, number];
  /** gyro bias (°/s per axis), gyro noise (°/s), accelerometer noise (g), a BNO085's yaw noise (° per frame) */
  bias: readonly number[];
  gn: number;
  an: number;
  yn: number;
  /** WiFi connects that fail first, the signal (dBm) */
  wf: number;
  rs: number;
  /** time the firmware's work per IMU sample */
  prof: boolean;
  /** s without a word from the harness before the board stops */
  wd: number;
  /** the trigger is down as the board starts */
  bh: boolean;
}

/** The options boardSettings reads. */
export interface SettingsOptions extends Omit<GunOptions, "board"> {
  /** time the firmware's own work per IMU sample */
  profile?: boolean;
}

/** The board's settings for `board` held at `pose`. */
export function boardSettings(board: BoardProfile, o: SettingsOptions, pose: Pose): BoardSettings {
  const L = board.led;
  const chip = loadChip(board.chip);
  const axes = mountAxesOf(o.imu?.mount);
  const kind = imuOf(board);
  if (!kind) throw new Error(`${board.name}: no IMU kind "${board.imu.kind}" in hardware/imus`);
  return {
    chip: board.chip,
    trig: board.trig,
    bz: board.bz.pin,
    // a Puck.js measures its own coin cell (E.getBattery): its volts
    bat: board.bat
      ? { pin: board.bat.pin, div: board.bat.div, v: o.battery ?? 3.9, adc: chip.adc, vref: o.adcVref }
      : board.chip === "NRF52"
        ? { v: o.battery ?? 2.75 }
        : undefined,
    led: { kind: L.kind, pin: L.pin, pr: L.pr, pg: L.pg, pb: L.pb, inv: !!L.inv },
    imu: {
      kind: board.imu.kind,
      bus: kind.bus,
      model: kind.model,
      addr: board.imu.addr ?? kind.addr,
      ser: board.imu.ser,
      axes,
      who: o.imu?.whoAmI ?? kind.ids?.whoAmI[0]?.[0] ?? 0,
    },
    cf: { dac: chip.dac?.pins ?? [], ser: chip.serial ?? {} },
    parts: partPins(board),
    pose: [pose.yaw, pose.pitch, pose.roll],
    bias: o.imu?.gyroBias ?? [0, 0, 0],
    gn: o.imu?.gyroNoise ?? 0,
    an: o.imu?.accelNoise ?? 0,
    yn: o.imu?.yawNoise ?? 0,
    wf: o.wifiFailures ?? 0,
    rs: o.rssi ?? -58,
    prof: !!o.profile,
    wd: 5,
    bh: !!o.held,
  };
}

/** `.boot0` for `board`: its settings, then the board (interpreter.ts boardBoot). */
export function bootFile(board: BoardProfile, o: SettingsOptions, pose: Pose): string {
  return boardBoot(boardSettings(board, o, pose));
}
