// The IMU on the vm's board: the chip the profile names, its model the one its kind names (hardware/imus: `model`,
// one of firmware/espruino/chips, which both boards run), attached to its bus and reading the motion on the vm's
// clock. On I2C it answers at its address on I2C1; on a serial port it sends its frames once the firmware sets the
// port up; a Puck.js's own is read through its Puck object (puck.ts).
import type { MpuFilters } from "../../../../firmware/espruino/chips/mpu6050.mjs";
import type { Sense } from "../../../../firmware/espruino/chips/sensor.mjs";
import { imuOf } from "../../boards/chips.js";
import type { BoardProfile } from "../../boards/profile.js";
import { CHIP_MODELS, type I2cImu, type I2cImuModel, type UartImuModel } from "./chip-models.js";
import type { VirtualClock } from "./clock.js";
import type { ImuInputs } from "./imu.js";
import { bodyGravity, bodyRate, meanBodyRate, type Pose } from "./motion.js";

export interface VmImu {
  /** what every chip senses now: gravity's reaction and the body rates, along the gun's axes */
  sense: Sense;
  I2C1: {
    setup(): void;
    writeTo(addr: number, data: number | number[]): void;
    readFrom(addr: number, n: number): Uint8Array;
  };
  /** the filters an I2C part has as the firmware last configured them (undefined: not yet, or none) */
  readonly filters: MpuFilters | undefined;
  /** serial port `name` set up: a serial IMU on it starts sending its frames to `receive` */
  serialSetup(name: string, receive: (d: string) => void): void;
}

export function vmImu(imu: BoardProfile["imu"], inputs: ImuInputs, clock: VirtualClock): VmImu {
  // the gyro reads what turned since its previous sample, as the real interpreter's board does (board.js): its
  // readings add up to exactly where the gun went however late the firmware reads it. A real gun's loop runs on its
  // own chip on time; this one shares the laptop, and a reading of the rate at one instant, integrated over a read
  // a busy machine made late, turned a swing into a heading a seat off.
  let last: { t: number; pose: Pose } | null = null;
  const sense: Sense = () => {
    const t = clock.now() / 1000;
    const pose = inputs.pose(t);
    const dt = last === null ? 0 : t - last.t;
    const rate = dt > 0 && last ? meanBodyRate(last.pose, pose, dt) : bodyRate(inputs.motion, t);
    last = { t, pose };
    return [bodyGravity(pose), rate];
  };
  const kind = imuOf({ imu });
  const Model = kind ? CHIP_MODELS[kind.model] : undefined;
  let device: I2cImu | undefined;
  let filters: MpuFilters | undefined;
  if (kind?.bus === "i2c") {
    const who = inputs.whoAmI ?? kind.ids?.whoAmI[0]?.[0] ?? 0;
    device = new (Model as I2cImuModel)(imu.addr ?? kind.addr ?? 0, who, inputs.axes, inputs, sense);
    device.onConfig = (m) => {
      filters = m.filters();
    };
  }
  /** no IMU on I2C: nothing answers there, as on a bus with no device */
  const bus = (): I2cImu => {
    if (!device) throw new Error("I2C: no ACK");
    return device;
  };
  let sending = false;
  return {
    sense,
    get filters() {
      return filters;
    },
    I2C1: {
      setup() {},
      writeTo: (a, d) => bus().writeTo(a, d),
      readFrom: (a, n) => bus().readFrom(a, n),
    },
    serialSetup(name, receive) {
      if (kind?.bus !== "uart" || imu.ser !== name || sending) return;
      sending = true;
      const chip = new (Model as UartImuModel)(inputs.axes, inputs);
      clock.set(
        () => {
          const p = inputs.pose(clock.now() / 1000);
          for (const f of chip.pieces(p.yaw, p.pitch, p.roll)) receive(f);
        },
        chip.period,
        true,
      );
    },
  };
}
