// The IMU on the vm's board: the chip the profile names, as the chips' models both boards run
// (firmware/espruino/chips), reading the motion on the vm's clock. An MPU-6050 answers on I2C1; a BNO085 in UART-RVC
// mode sends its frames on the profile's serial port once the firmware sets it up; a Puck.js's LSM6DS3 is read
// through its Puck object (puck.ts).
import { Bno085Rvc, RVC_MS } from "../../../../firmware/espruino/chips/bno085-rvc.mjs";
import { Mpu6050, type MpuFilters } from "../../../../firmware/espruino/chips/mpu6050.mjs";
import type { Sense } from "../../../../firmware/espruino/chips/sensor.mjs";
import type { BoardProfile } from "../../boards/profile.js";
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
  /** the MPU-6050's filters as the firmware last configured them (undefined: not yet, or another IMU) */
  readonly filters: MpuFilters | undefined;
  /** serial port `name` set up: the BNO085 on it starts sending its frames to `receive` */
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
  // no MPU on the board: nothing answers on I2C
  const addr = imu.kind === "mpu6050" ? (imu.addr ?? 0x68) : undefined;
  const mpu = new Mpu6050(addr, inputs.whoAmI, inputs.axes, inputs, sense);
  let filters: MpuFilters | undefined;
  mpu.onConfig = (m) => {
    filters = m.filters();
  };
  let sending = false;
  return {
    sense,
    get filters() {
      return filters;
    },
    I2C1: {
      setup() {},
      writeTo: (a, d) => mpu.writeTo(a, d),
      readFrom: (a, n) => mpu.readFrom(a, n),
    },
    serialSetup(name, receive) {
      if (imu.kind !== "bno085" || imu.ser !== name || sending) return;
      sending = true;
      const bno = new Bno085Rvc(inputs.axes, inputs);
      clock.set(
        () => {
          const p = inputs.pose(clock.now() / 1000);
          for (const f of bno.pieces(p.yaw, p.pitch, p.roll)) receive(f);
        },
        RVC_MS,
        true,
      );
    },
  };
}
