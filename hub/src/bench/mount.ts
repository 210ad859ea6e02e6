// `cng bench mount`: does a gun whose IMU sits upside down or sideways aim as well as one mounted as designed? On
// the real Espruino interpreter, per IMU board, guns with the chip mounted as designed (+x+z), upside down (+x-z),
// on its side (+x+y) and standing on an edge, facing back (-z-y) — gun.json naming the mounting — each follow the
// same scripted play, one gun after the other, (turns between seats, aim up and down, a lie-down, some roll) with gyro bias (on the chip's
// axes) and noise. At the end of every hold the aim is compared with the true pose: yaw after the first hold's
// offset (what calibration removes), pitch and roll as they are. Aim comes over the serial link: no hub needed.
import { findInterpreter } from "../sim/espruino/interpreter.js";
import type { Pose } from "../sim/espruino/motion.js";
import { startRealGun } from "../sim/espruino/real-gun.js";
import { createVirtualGun } from "../sim/espruino/vm-gun.js";
import type { Bench, BenchOptions } from "./index.js";

export const BENCH_MOUNTS = ["+x+z", "+x-z", "+x+y", "-z-y"];
export const BENCH_BOARDS = ["esp32-mpu6050", "esp32-bno085"];

export interface MountRow {
  /** "espruino": the real interpreter in real time; "vm": Node's vm on a manual clock (no machine load) */
  runtime: "espruino" | "vm";
  board: string;
  mount: string;
  /** holds compared */
  holds: number;
  /** mean and largest |error| over the holds, degrees */
  yawMean: number;
  yawMax: number;
  pitchMean: number;
  pitchMax: number;
  rollMean: number;
  rollMax: number;
}

/** A hold: the pose a player keeps from `from` to `to` (s), after moving there from the previous one. */
interface Hold {
  from: number;
  to: number;
  pose: Pose;
}

const MOVE_S = 0.7;
const HOLD_S = 1.6;
/** the first hold starts after the gun has booted, said hello (2 s on the serial link) and settled */
const START_S = 4;

/** The same play for every gun: seats at ±30°/±60°, aim a little up or down, a lie-down now and then, some roll. */
export function script(seconds: number): Hold[] {
  const yaws = [0, 30, -30, 60, -60, 15, -45, 45];
  const holds: Hold[] = [];
  let t = START_S;
  for (let i = 0; t + MOVE_S + HOLD_S <= START_S + seconds; i++) {
    const lie = i % 5 === 4;
    holds.push({
      from: t + MOVE_S,
      to: t + MOVE_S + HOLD_S,
      pose: {
        yaw: yaws[i % yaws.length]!,
        pitch: lie ? -60 : ((i * 7) % 19) - 6,
        roll: lie ? 0 : ((i * 11) % 21) - 10,
      },
    });
    t += MOVE_S + HOLD_S;
  }
  return holds;
}

/** The motion that plays `holds`, moving smoothly (smoothstep) between them. */
export function playing(holds: Hold[]): (t: number) => Pose {
  const rest: Pose = { yaw: 0, pitch: 0, roll: 0 };
  return (t) => {
    let prev = rest;
    for (const h of holds) {
      if (t < h.from - MOVE_S) return prev;
      if (t < h.from) {
        const k = (t - (h.from - MOVE_S)) / MOVE_S;
        const s = k * k * (3 - 2 * k);
        return {
          yaw: prev.yaw + (h.pose.yaw - prev.yaw) * s,
          pitch: prev.pitch + (h.pose.pitch - prev.pitch) * s,
          roll: prev.roll + (h.pose.roll - prev.roll) * s,
        };
      }
      prev = h.pose;
      if (t < h.to) return prev;
    }
    return prev;
  };
}

const wrap = (d: number) => {
  let x = d % 360;
  if (x > 180) x -= 360;
  if (x <= -180) x += 360;
  return x;
};

interface Aim {
  t: number;
  y: number;
  p: number;
  r: number;
}

/**
 * Runs one board's guns, one per mounting, over the same play; their errors. One after the other, not side by side:
 * an interpreter starved of CPU (guns in parallel on a busy machine) drops samples, which would be the machine's
 * error, not the mounting's.
 */
export async function measureMounts(board: string, mounts: string[], seconds: number): Promise<MountRow[]> {
  const rows: MountRow[] = [];
  for (const m of mounts) rows.push(await measureMount(board, m, seconds));
  return rows;
}

/** the gun: its mounting named in gun.json, on the serial link */
const gunConfig = (mount: string) => ({ id: "m1", secret: "bench-secret", table: "bench", link: "serial", mount });
/** bias on the chip's own axes (the board adds it after turning the motion into the chip's frame) */
const imuModel = (mount: string, motion: (t: number) => Pose) => ({
  motion,
  mount,
  gyroBias: [0.3, -0.2, 0.25] as [number, number, number],
  gyroNoise: 0.05,
  accelNoise: 0.004,
  seed: 3,
});

async function measureMount(board: string, mount: string, seconds: number): Promise<MountRow> {
  const holds = script(seconds);
  const g = await startRealGun({ board, config: gunConfig(mount), imu: imuModel(mount, playing(holds)) });
  try {
    await new Promise((r) => setTimeout(r, (START_S + seconds + 0.5) * 1000));
    return errors("espruino", board, mount, holds, g.usb.out);
  } finally {
    g.stop();
    await g.stopped();
  }
}

/** The same on Node's vm with a manual clock: the firmware's own error, whatever else runs on the machine. */
export async function measureMountVm(board: string, mount: string, seconds: number): Promise<MountRow> {
  const holds = script(seconds);
  const g = createVirtualGun({
    board,
    clock: "manual",
    config: gunConfig(mount),
    imu: imuModel(mount, playing(holds)),
  });
  try {
    await g.advance((START_S + seconds + 0.5) * 1000);
    return errors("vm", board, mount, holds, g.usb.out);
  } finally {
    g.stop();
  }
}

/** The aim at the end of each hold against the true pose. */
function errors(runtime: MountRow["runtime"], board: string, mount: string, holds: Hold[], out: string): MountRow {
  const aims: Aim[] = out
    .split(/\r?\n/)
    .filter((l) => l.startsWith("aim "))
    .map((l) => JSON.parse(l.slice(4)) as Aim);
  // the aim sample at the end of each hold (the last one in its final 300 ms)
  const at = holds
    .map((h) => ({ h, a: aims.filter((a) => a.t / 1000 > h.to - 0.3 && a.t / 1000 <= h.to).at(-1) }))
    .filter((x) => x.a);
  const first = at[0];
  const off = first ? wrap(first.h.pose.yaw - first.a!.y) : 0;
  const ye: number[] = [];
  const pe: number[] = [];
  const re: number[] = [];
  for (const { h, a } of at.slice(1)) {
    // yaw has no meaning in a lie-down (pitch −60 is still fine, but the table does not read it)
    if (h.pose.pitch > -45) ye.push(Math.abs(wrap(a!.y + off - h.pose.yaw)));
    pe.push(Math.abs(a!.p - h.pose.pitch));
    re.push(Math.abs(wrap(a!.r - h.pose.roll)));
  }
  const mean = (x: number[]) => (x.length ? Math.round((x.reduce((s, v) => s + v, 0) / x.length) * 100) / 100 : NaN);
  const max = (x: number[]) => (x.length ? Math.round(Math.max(...x) * 100) / 100 : NaN);
  return {
    runtime,
    board,
    mount,
    holds: at.length - 1,
    yawMean: mean(ye),
    yawMax: max(ye),
    pitchMean: mean(pe),
    pitchMax: max(pe),
    rollMean: mean(re),
    rollMax: max(re),
  };
}

export const mountBench: Bench = {
  name: "mount",
  summary: "aim error by IMU mounting on the real interpreter: as designed vs upside down vs sideways",
  async run(opts: BenchOptions): Promise<void> {
    const interp = await findInterpreter();
    if (!interp.path) {
      process.stderr.write(`cng bench mount: ${interp.why}\n`);
      process.exitCode = 1;
      return;
    }
    const seconds = opts.seconds ?? 25;
    const rows: MountRow[] = [];
    for (const board of BENCH_BOARDS) {
      if (!opts.json) process.stderr.write(`${board}: ${BENCH_MOUNTS.join(", ")} for ${seconds} s each…\n`);
      rows.push(...(await measureMounts(board, BENCH_MOUNTS, seconds)));
      for (const m of BENCH_MOUNTS) rows.push(await measureMountVm(board, m, seconds));
    }
    if (opts.json) {
      console.log(JSON.stringify(rows, null, 2));
      return;
    }
    console.log(
      "runtime   board            mount   holds   |yaw err| mean  max   |pitch err| mean  max   |roll err| mean  max",
    );
    for (const r of rows) {
      const f = (m: number, x: number) => `${m.toFixed(2).padStart(9)} ${x.toFixed(2).padStart(5)}`;
      console.log(
        `${r.runtime.padEnd(9)} ${r.board.padEnd(16)} ${r.mount.padEnd(6)} ${String(r.holds).padStart(6)}   ${f(r.yawMean, r.yawMax)}   ` +
          `${f(r.pitchMean, r.pitchMax)}       ${f(r.rollMean, r.rollMax)}`,
      );
    }
    console.log(
      "degrees, at the end of each hold; yaw after the first hold's offset (what calibration removes), lie-downs " +
        "left out of yaw. Gyro bias 0.3/−0.2/0.25 °/s on the chip's axes, noise 0.05 °/s, accel noise 0.004 g.\n" +
        "espruino: the real interpreter in real time (a busy machine shows as error: the harness feeds the motion " +
        "late); vm: the same bundle in Node's vm on a manual clock (the firmware's own error).",
    );
  },
};
