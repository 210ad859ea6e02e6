// The motion for the real interpreter's board: the harness samples the IMU inputs' motion ahead of the gun's clock
// and sends it as keyframes (`__b.p`), which the board plays back (firmware/espruino/board.js); changed noise goes
// with them (`__b.gs`).
import type { ImuInputs } from "./imu.js";
import type { Pose } from "./motion.js";

/** the motion is sent this far ahead, so stdin's latency (the interpreter polls it every ≤ 50 ms) never shows */
export const LEAD_MS = 80;
/** keyframes per second */
const FEED_MS = 20;
/** an unchanged pose is sent again this often (it is also the board's keepalive) */
const KEEP_MS = 400;

function keyframe(t: number, p: Pose): string {
  return `__b.p(${Math.round(t)},${p.yaw.toFixed(2)},${p.pitch.toFixed(2)},${p.roll.toFixed(2)})`;
}

/** The noise settings the board has, as one key. */
function noiseKey(i: ImuInputs): string {
  return `${i.gyroBias.join(",")},${i.gyroNoise},${i.accelNoise}`;
}

export class MotionFeed {
  private timer: NodeJS.Timeout | undefined;
  private last: { t: number; key: string; sent: boolean } | undefined;
  private lastSent = 0;
  /** the noise the board was booted with or last sent */
  private noise: string;

  /** `now()` is gun ms; `send` takes commands for the board, each a line of its own. */
  constructor(
    private readonly imu: ImuInputs,
    private readonly now: () => number,
    private readonly send: (commands: string[]) => void,
  ) {
    this.noise = noiseKey(imu);
  }

  /** A keyframe whenever the pose changes, and every KEEP_MS anyway. */
  start(): void {
    this.stop();
    this.last = undefined;
    this.timer = setInterval(() => this.tick(), FEED_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const t = this.now() + LEAD_MS;
    const p = this.imu.pose(t / 1000);
    const key = `${p.yaw.toFixed(2)},${p.pitch.toFixed(2)},${p.roll.toFixed(2)}`;
    const out: string[] = [];
    const noise = noiseKey(this.imu);
    if (noise !== this.noise) {
      this.noise = noise;
      const i = this.imu;
      out.push(`__b.gs(${i.gyroBias.join(",")},${i.gyroNoise},${i.accelNoise})`);
    }
    const prev = this.last;
    if (!prev || key !== prev.key || t - this.lastSent >= KEEP_MS) {
      // a move after a still spell starts from the last still pose, at its time
      if (prev && !prev.sent && key !== prev.key) out.push(keyframe(prev.t, this.imu.pose(prev.t / 1000)));
      out.push(keyframe(t, p));
      this.lastSent = t;
      this.last = { t, key, sent: true };
    } else this.last = { t, key, sent: false };
    if (out.length) this.send(out);
  }
}
