/** A board profile's `imu` (hardware/boards/<name>.json; hub/src/boards/profile.ts narrows its kind). */
export interface ImuProfile {
  kind: string;
  /** an I2C IMU's clock and data pins */
  scl?: string;
  sda?: string;
  /** its I2C address, when not its kind's own */
  addr?: number;
  /** samples a second, when not its kind's own */
  hz?: number;
  /** a serial IMU's port and RX pin */
  ser?: string;
  rx?: string;
  /** the serial IMU's TX pin: named, so that Serial2 takes no default one */
  tx?: string;
  /** the serial IMU's baud rate */
  sbaud?: number;
  /** how the chip sits in the gun (boards with "mount"): the chip axis forward then up, e.g. "+x-z" */
  mount?: string;
}

/** One pin a part takes: what it does, what it needs of the pin, and where its wiring holds it at reset. */
export interface PinUse {
  what: string;
  pin: string | undefined;
  needs: "pwm" | "out" | "i2c" | "in" | "rx" | "adc";
  atReset: "low" | "high" | "open";
}

/** One IMU kind: everything the tools know of it. */
export interface ImuKind {
  kind: string;
  /** the part's name as the pages print it */
  name: string;
  /** how the firmware reads it: I2C registers, frames on a serial port, or the board's own object */
  bus: "i2c" | "uart" | "board";
  /** the board it is part of (its chip and name), when it comes with one */
  onChip?: { chip: string; board: string };
  /** its firmware driver: the module of firmware/src that exports `imu(hz)` */
  driver: string;
  /**
   * its chip model's export in firmware/espruino/chips, which both board models attach to its bus: on I2C, a device
   * `new M(addr, whoAmI, axes, noise, sense)` with `writeTo`, `readFrom` and a `sample()` its data read calls; on a
   * serial port, `new M(axes, noise)` whose `pieces(yaw, pitch, roll)` are sent every `period` ms
   */
  model: string;
  /** its I2C address unless the profile says (imu.addr) */
  addr?: number;
  /** samples a second unless the profile says (imu.hz) */
  hz: number;
  /** WHO_AM_I: its register and the answers of the parts sold under its name */
  ids?: { register: number; whoAmI: [number, string][]; why: string };
  /** constants its firmware driver is built with (terser's global_defs) */
  defines?: Record<string, unknown>;
  /** the profile's imu fields it needs, and the refusal without them */
  needs: { fields: string[]; why: string };
  /** the chip's pins it takes */
  pins(imu: ImuProfile): PinUse[];
  /** what else its chip's facts (hardware/chips.json) refuse of it */
  pinProblems?(
    imu: ImuProfile,
    chip: { serial?: Record<string, { tx: number; rx: number }> & { why?: string } },
  ): string[];
  /** the parts list's row: a part to buy (not one on the board) */
  part?: { part: string; module: string; eur: number; note?: string };
  /** the module's name in the power figures */
  module: string;
  /** a breakout's electrical rating (hardware/parts.json's shape): what it is, its supply range, its peak mA */
  rating?: { what: string; vin: [number, number]; ma: number; why: string; src: string; seen: string };
  /** supply current in a game, mA, and where the figure comes from */
  current: [number, string];
  /** its size, as the parts page prints it */
  size?: string;
  /** the pin table's rows: [part, part pin, board pin or supply, note] */
  wiring(imu: ImuProfile, three: string): string[][];
  /** the firmware facts' line, at `hz` */
  summary(imu: ImuProfile, hz: number): string;
  /** the builder's check (`cng check`): ES5 for the board's REPL */
  check: {
    /** who it says it is (names in `N`) and how it reads, printed with `P` */
    read(imu: ImuProfile, js: (v: unknown) => string): string;
    /** wraps what calls the firmware's sampling, so each sample's work is timed into `H` */
    hook(imu: ImuProfile, hz: number): string;
    /** what one timed sample is, for the line printed */
    per(imu: ImuProfile, hz: number): string;
  };
}

export declare const IMUS: Record<string, ImuKind>;
export declare function imuKindList(): string;
export declare function imuOf(b: { imu?: { kind?: string } } | undefined): ImuKind | undefined;
export declare function imuHz(b: { imu: ImuProfile }): number;
