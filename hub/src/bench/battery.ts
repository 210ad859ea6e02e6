// `cng bench battery`: the charge a gun reports across a discharge, 4.2 to 3.0 V, per LiPo board, before and after
// the gauge learnt its chip. "Now" is the real firmware bundle on the virtual board (vm), whose ADC is the chip's own
// (an ESP32's uncalibrated 11 dB transfer with its Vref; an ESP8266's 10-bit A0), its volts turned into a charge by
// the LiPo curve, as the hub does; an ESP32 whose Vref is at either end of its spread is shown raw and after the
// host's "this gun is full" calibration. "Before" is the old reading of the same ADC count: raw × the full scale
// (3.3 V taken for an ESP32's) × the divider, a straight line from 3.3 V (0 %) to 4.2 V (100 %).
import { createServer, type Socket } from "node:net";
import { batFactor, gunTopic, LIPO_FULL_V, lipoPercent } from "@cng/protocol";
import { Aedes } from "aedes";
import mqtt from "mqtt";
import { adcCount, loadChip } from "../boards/chips.js";
import { createGun, loadBoard } from "../sim/espruino/index.js";
import type { Bench } from "./index.js";

/** the LiPo boards (the Puck.js gauges its coin cell itself) */
const BOARDS = ["esp32-mpu6050", "esp32-bno085", "esp8266-mpu6050"];
const VOLTS = Array.from({ length: 13 }, (_, i) => Math.round((4.2 - i * 0.1) * 10) / 10);

export interface BatteryRow {
  board: string;
  /** the chip's ADC reference, mV (ESP32 only); "calibrated": after "this gun is full" */
  chip: string;
  /** per volt of VOLTS: the true charge, before, now */
  points: { v: number; truth: number; before: number; now: number; bv: number }[];
  /** largest |now − truth| and |before − truth|, percent */
  worstNow: number;
  worstBefore: number;
}

async function broker() {
  const aedes = await Aedes.createBroker();
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    aedes.handle(s);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
    await new Promise<void>((r) => aedes.close(() => r()));
  };
  return { port, close };
}

async function until<T>(fn: () => T | undefined, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`bench battery: no ${what} in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One gun of `board` with this ADC reference, through the discharge; `calibrate`: "this gun is full" first. */
async function discharge(board: string, vref: number | undefined, calibrate: boolean): Promise<BatteryRow> {
  const b = broker();
  const { port, close } = await b;
  const host = await mqtt.connectAsync({ host: "127.0.0.1", port, clientId: "hub-bench" });
  const infos: { bv?: number; bk?: number }[] = [];
  host.on("message", (t, p) => {
    if (t.endsWith("/info")) infos.push(JSON.parse(p.toString()));
  });
  await host.subscribeAsync(gunTopic("main", "b1", "info"), { qos: 1 });
  const config = { id: "b1", secret: "bench-secret", hub: { host: "127.0.0.1", port }, wifi: { ssid: "w", pass: "p" } };
  const gun = await createGun({ runtime: "vm", board, config, battery: LIPO_FULL_V, adcVref: vref });
  let n = 0;
  const ask = async (body: object) => {
    const from = infos.length;
    await host.publishAsync(gunTopic("main", "b1", "cmd"), JSON.stringify({ v: 1, n: ++n, ...body }), { qos: 1 });
    return until(() => infos[from], 5000, "info");
  };
  try {
    await until(() => infos[0], 8000, "first info");
    if (calibrate) {
      const raw = await ask({ c: "info" });
      const k = batFactor(LIPO_FULL_V, raw.bv, raw.bk);
      if (k === undefined) throw new Error(`bench battery: ${board} at Vref ${vref} mV cannot be calibrated`);
      await ask({ c: "bat", k });
    }
    const p = loadBoard(board);
    const adc = loadChip(p.chip).adc!;
    const div = p.bat!.div;
    // the old profiles' multiplier over the raw reading: 3.3 V full scale on an ESP32, the ADC's own elsewhere
    const oldFullScale = adc.kind === "esp32" ? 3.3 : adc.fullScaleV!;
    const points: BatteryRow["points"] = [];
    for (const v of VOLTS) {
      gun.setBattery(v);
      const info = await ask({ c: "info" });
      const bv = info.bv!;
      const raw = adcCount(adc, v / div, vref) / adc.counts;
      const before = Math.max(0, Math.min(100, Math.round(((raw * oldFullScale * div - 3.3) / 0.9) * 100)));
      points.push({ v, truth: lipoPercent(v), before, now: lipoPercent(bv), bv });
    }
    const worst = (k: "before" | "now") => Math.max(...points.map((x) => Math.abs(x[k] - x.truth)));
    const chip = vref === undefined ? "typical" : `Vref ${vref} mV${calibrate ? ", calibrated" : ""}`;
    return { board, chip, points, worstNow: worst("now"), worstBefore: worst("before") };
  } finally {
    gun.stop();
    await host.endAsync(true);
    await close();
  }
}

export const batteryBench: Bench = {
  name: "battery",
  summary: "the battery gauge across a discharge, per LiPo board, before and now",
  async run(opts) {
    const rows: BatteryRow[] = [];
    for (const board of BOARDS) {
      const esp32 = loadBoard(board).chip === "ESP32";
      const cases: [number | undefined, boolean][] = esp32
        ? [
            [undefined, false],
            [1000, false],
            [1000, true],
            [1200, false],
            [1200, true],
          ]
        : [[undefined, false]];
      for (const [vref, cal] of cases) {
        const row = await discharge(board, vref, cal);
        rows.push(row);
        if (!opts.json) {
          console.log(`\n${board}, ${row.chip}: worst error before ${row.worstBefore} %, now ${row.worstNow} %`);
          console.log("  volts  true %  before %  now %  (volts read)");
          for (const x of row.points)
            console.log(
              `  ${x.v.toFixed(1)}    ${String(x.truth).padStart(4)}  ${String(x.before).padStart(7)}  ` +
                `${String(x.now).padStart(5)}  (${x.bv.toFixed(2)})`,
            );
        }
      }
    }
    if (opts.json) console.log(JSON.stringify(rows, null, 2));
  },
};
