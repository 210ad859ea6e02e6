// @real-time: hub processes on one mosquitto, in real time
// `cng bench venue` at a tiny size against the real mosquitto: the figures are real (every pull answered by a cue,
// every aim sample sent counted by a hub, mosquitto's CPU and the hubs' memory read), and nothing it started is left
// behind, after a run and after Ctrl-C. Correctness only: no speed is checked.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { nextSize, runVenueBench, VENUE_DEFAULTS, type VenueResult } from "../../hub/src/bench/venue-run.js";
import { MOSQUITTO_CANDIDATES } from "../../hub/src/bench/venue-tables.js";
import { findPlugin } from "../../hub/src/broker/dynsec-init.js";

const CLI = fileURLToPath(new URL("../../bin/cng.js", import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL("../../hub/dist/bench/venue.js", import.meta.url)));
const CAN = MOSQUITTO_CANDIDATES.some((p) => existsSync(p)) && findPlugin() !== null;
if (!CAN) {
  if (process.env.CI) throw new Error("bench venue tests cannot run in CI: no mosquitto with its dynsec plugin");
  console.warn(
    "SKIPPED cng bench venue runs: no mosquitto with its dynamic-security plugin (apt-get install mosquitto)",
  );
}

const gone = (pid: number) => !existsSync(`/proc/${pid}`);

/** Runs `cng bench venue ARGS`; resolves with its exit code, stdout and stderr. */
function bench(args: string[], onErr?: (text: string, p: ChildProcess) => void) {
  const p = spawn(process.execPath, [CLI, "bench", "venue", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  p.stdout.on("data", (c) => {
    out += c;
  });
  p.stderr.on("data", (c) => {
    err += c;
    onErr?.(err, p);
  });
  return new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((resolve) =>
    p.on("close", (code, signal) => resolve({ code, signal, out, err })),
  );
}

describe("cng bench venue", () => {
  it("says clearly when mosquitto or its plugin is missing", async () => {
    const c = { ...VENUE_DEFAULTS, say: () => {} };
    await expect(runVenueBench({ ...c, mosquitto: "/nowhere/mosquitto" })).rejects.toThrow(
      /needs mosquitto: not found \(looked in \/nowhere\/mosquitto\).*apt-get install mosquitto/,
    );
    await expect(runVenueBench({ ...c, mosquitto: process.execPath, plugin: "/nowhere/x.so" })).rejects.toThrow(
      /dynamic-security plugin \(mosquitto_dynamic_security\.so\): not found \(looked in \/nowhere\/x\.so\)/,
    );
  });

  it("raises N 1, 2, 4, 6, 8, then by 4", () => {
    const ns = [1];
    while (ns.length < 8) ns.push(nextSize(ns.at(-1)!));
    expect(ns).toEqual([1, 2, 4, 6, 8, 12, 16, 20]);
  });

  describe.skipIf(!CAN)("against the real mosquitto (hubs from the build: npm run build)", () => {
    it("two tables of two guns: real figures, and every child and folder gone afterwards", async () => {
      expect(BUILT, "hub/dist is missing: npm run build").toBe(true);
      const r = await bench(["--max", "2", "--guns", "2", "--seconds", "2", "--json"]);
      expect(r.code, r.err).toBe(0);
      const res = JSON.parse(r.out) as VenueResult;
      // N = 1, then 2 (unless one table already lost something: then the figures still have to be real)
      expect(res.steps[0]!.tables).toBe(1);
      expect(res.steps.map((s) => s.tables)).toEqual(res.steps[0]!.held ? [1, 2] : [1]);
      expect(res.largest).toBe(res.steps.filter((s) => s.held).at(-1)?.tables ?? 0);
      for (const s of res.steps) {
        const where = `N=${s.tables}`;
        // the load guns pulled, and (nothing lost on a machine that is not drowning) each pull got its cue
        expect(s.triggers, where).toBeGreaterThan(10);
        expect(s.cues, where).toBeLessThanOrEqual(s.triggers);
        expect(s.cues, where).toBeGreaterThanOrEqual(s.triggers - 1);
        expect(s.rtt.n, where).toBe(s.cues);
        expect(s.rtt.p50, where).toBeGreaterThan(0);
        expect(s.rtt.p99, where).toBeGreaterThanOrEqual(s.rtt.p50);
        expect(s.rtt.max, where).toBeGreaterThanOrEqual(s.rtt.p99);
        // 2 guns × 50 Hz per table for the measured window; each hub counted what its guns sent
        const expected = s.tables * 2 * 50 * s.seconds;
        expect(s.aimSent, where).toBeGreaterThan(expected * 0.9);
        expect(s.aimSent, where).toBeLessThan(expected * 1.1);
        expect(s.aimReceived, where).toBeLessThanOrEqual(s.aimSent);
        expect(s.aimReceived, where).toBeGreaterThan(s.aimSent * 0.95);
        expect(s.aimLost, where).toBe(s.aimSent - s.aimReceived);
        expect(s.perTable).toHaveLength(s.tables);
        for (const t of s.perTable) {
          expect(t.aimReceived, `${where} ${t.table}`).toBeGreaterThan(0);
          expect(t.cues, `${where} ${t.table}`).toBeGreaterThan(0);
          // a Node hub process: tens of MB, not bytes, not gigabytes
          expect(t.rssKb, `${where} ${t.table}`).toBeGreaterThan(20 * 1024);
          expect(t.rssKb, `${where} ${t.table}`).toBeLessThan(1024 * 1024);
        }
        expect(s.hubRssSumKb).toBe(s.perTable.reduce((a, t) => a + t.rssKb, 0));
        expect(s.hubRssMaxKb).toBe(Math.max(...s.perTable.map((t) => t.rssKb)));
        // mosquitto's CPU: measured (a share of one core, on a 2-core machine at most 2)
        expect(Number.isFinite(s.brokerCpu), where).toBe(true);
        expect(s.brokerCpu, where).toBeGreaterThanOrEqual(0);
        expect(s.brokerCpu, where).toBeLessThan(2);
      }
      expect(res.baseP99).toBe(res.steps[0]!.rtt.p99);
      expect(res.pids.hubs).toHaveLength(res.steps.at(-1)!.tables);
      for (const pid of [res.pids.mosquitto, ...res.pids.hubs]) expect(gone(pid), `pid ${pid}`).toBe(true);
      expect(existsSync(res.dir)).toBe(false);
      // progress on stderr
      expect(r.err).toContain(`mosquitto pid ${res.pids.mosquitto}`);
      expect(r.err).toMatch(/N=1: p50 .* held/);
    }, 120_000);

    it("Ctrl-C while measuring stops the hubs and mosquitto and removes the folder", async () => {
      expect(BUILT, "hub/dist is missing: npm run build").toBe(true);
      let sent = false;
      const r = await bench(["--max", "4", "--guns", "2", "--seconds", "30"], (err, p) => {
        if (!sent && /N=1: .* measured/.test(err)) {
          sent = true;
          setTimeout(() => p.kill("SIGINT"), 500);
        }
      });
      expect(sent, r.err).toBe(true);
      expect(r.code, r.err).toBe(130);
      const mosq = Number(/mosquitto pid (\d+)/.exec(r.err)?.[1]);
      const hubs = [...r.err.matchAll(/hub pid (\d+)/g)].map((m) => Number(m[1]));
      const dir = /files in (\S+)/.exec(r.err)?.[1];
      expect(mosq).toBeGreaterThan(0);
      expect(hubs).toHaveLength(1);
      for (const pid of [mosq, ...hubs]) expect(gone(pid), `pid ${pid}`).toBe(true);
      expect(dir && existsSync(dir)).toBe(false);
      expect(r.err).toContain("SIGINT: stopping the hubs and mosquitto");
    }, 120_000);
  });
});
