// `cng bench firmware`, on the real interpreter: per board, the bundle booted from its flash image on Espruino's
// Linux build, paired to a real hub, then measured: JsVars after boot (the firmware's share: the simulated board's
// own is taken out), the peak during a 50 Hz count (beats on the hub's clock, aim at 50 Hz, a pull), and the
// interpreter's time per IMU sample (the firmware's own work: I2C read + filter for the MPU-6050, one RVC frame for
// the BNO085; the register model's time taken out). A relative figure: the Linux build on this machine.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHub } from "../hub.js";
import { bridgeGun, needsBridge } from "../sim/espruino/cable.js";
import { startRealGun } from "../sim/espruino/real-gun.js";

export interface RealRow {
  /** JsVars the firmware holds after boot, connected and streaming */
  jsvarsBoot: number;
  /** its highest count during a 50 Hz count */
  jsvarsPeak: number;
  /** the simulated board's own share, taken out of both */
  jsvarsBoard: number;
  /** interpreter µs per IMU sample */
  usPerSample: number;
  samples: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(50);
  }
}

export async function measureOnInterpreter(board: string, seconds: number): Promise<RealRow> {
  const data = mkdtempSync(join(tmpdir(), "cng-bench-fw-"));
  const hub = await startHub({ mqttPort: 0, httpPort: 0, bind: "127.0.0.1", data });
  const id = `bench-${board}`;
  const gun = await startRealGun({
    board,
    profile: true,
    config: { id, secret: "bench-secret", table: hub.table, hub: { host: "127.0.0.1", port: hub.ports.mqtt } },
    imu: { motion: (t) => ({ yaw: 25 * Math.sin(t), pitch: 10 * Math.cos(t / 2), roll: 2 }), gyroNoise: 0.05 },
  });
  // a gun without WiFi (a Puck.js) reaches the hub through the serial bridge on its Bluetooth link
  const bridge = needsBridge(gun)
    ? await bridgeGun(gun, { mqttUrl: hub.urls.mqtt, table: hub.table, credentials: hub.bridge })
    : undefined;
  try {
    await until("the pairing request", 10_000, async () => (await hub.guns.pair(id, 0)).ok);
    const aims = () => hub.streams.stats.aim;
    const a0 = aims();
    await until("aim from the paired gun", 10_000, () => aims() > a0 + 10);
    await sleep(1000);
    const boot = await gun.memory();
    await gun.imuCost();
    await sleep(seconds * 1000);
    const cost = await gun.imuCost();
    // a count as the table plays it: 50 Hz aim, beat, beat, go on the hub's clock, then a pull
    await gun.trackPeak(true);
    await hub.guns.command(id, { c: "rate", hz: 50 });
    const t0 = Date.now() + 300;
    hub.play.dispatcher.cue(0, "beat", { at: t0 });
    hub.play.dispatcher.cue(0, "beat", { at: t0 + 500 });
    hub.play.dispatcher.cue(0, "go", { at: t0 + 1000 });
    await sleep(1400);
    gun.button.press();
    await sleep(120);
    gun.button.release();
    await sleep(800);
    const peak = await gun.memory();
    return {
      jsvarsBoot: boot.firmware,
      jsvarsPeak: peak.peak - boot.board,
      jsvarsBoard: boot.board,
      usPerSample: Math.round(cost.us * 10) / 10,
      samples: cost.samples,
    };
  } finally {
    await bridge?.close();
    gun.stop();
    await gun.stopped();
    await hub.close();
    rmSync(data, { recursive: true, force: true });
  }
}
