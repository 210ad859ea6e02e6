// `cng bench guessing`: a PIN guesser against a real hub on its embedded broker, from 1, 300 and 20,000 rotating
// loopback addresses (each a device to the hub), as fast as the machine connects. Per row: guesses made, how many
// the hub checked (CONNACK 4) and held back unchecked (5), checked guesses a minute, and the real host logging in
// with its device's token meanwhile from the guesser's own addresses: every time, and how fast.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHub } from "../../hub.js";
import { CommandClient } from "../../sim/commands.js";
import type { Bench } from "../index.js";
import { spread } from "../load/stats.js";
import { tcpConnect } from "./raw-connect.js";

export interface GuessRow {
  addresses: number;
  seconds: number;
  guesses: number;
  checked: number;
  held: number;
  /** checked guesses a minute over the run */
  checkedPerMinute: number;
  hostLogins: number;
  hostRefused: number;
  hostP50Ms: number;
  hostMaxMs: number;
}

/** the i-th address of a guesser holding `n`: 127.a.b.c, never the hub's own 127.0.0.1 */
function address(i: number, n: number): string {
  const k = i % n;
  return `127.${1 + Math.floor(k / 65024)}.${Math.floor(k / 254) % 256}.${1 + (k % 254)}`;
}

async function row(addresses: number, seconds: number, say: (s: string) => void): Promise<GuessRow> {
  const data = mkdtempSync(join(tmpdir(), "cng-bench-guess-"));
  const hub = await startHub({ mqttPort: 0, httpPort: 0, bind: "127.0.0.1", data, discovery: "off" });
  try {
    const port = hub.ports.mqtt!;
    const host = await CommandClient.connect(hub.urls.mqtt, {
      table: hub.table,
      clientId: "bench-host",
      username: "host",
      password: hub.pin,
      auth: hub.pin,
    });
    const { token } = await host.request("devices.enrol", { name: "bench" });
    await host.close();
    const wrong = (i: number) => String((Number(hub.pin) + 1 + i) % 1_000_000).padStart(6, "0");
    const end = Date.now() + seconds * 1000;
    let n = 0;
    let checked = 0;
    let held = 0;
    const guesser = async () => {
      while (Date.now() < end) {
        const i = n++;
        const rc = await tcpConnect(port, {
          clientId: `g${i}`,
          username: "host",
          password: wrong(i),
          from: address(i, addresses),
        });
        if (rc === 4) checked++;
        else if (rc === 5) held++;
        else if (rc === 0) throw new Error("bench: a wrong PIN was let in");
      }
    };
    const logins: number[] = [];
    let refused = 0;
    const theHost = async () => {
      for (let i = 0; Date.now() < end; i++) {
        const t0 = performance.now();
        const rc = await tcpConnect(port, {
          clientId: `host${i}`,
          username: "host",
          password: token,
          from: address(i * 7919, addresses),
        });
        if (rc === 0) logins.push(performance.now() - t0);
        else refused++;
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    const ticker = setInterval(() => say(`  ${addresses} addresses: ${n} guesses, ${checked} checked`), 10_000);
    try {
      await Promise.all([...Array.from({ length: 64 }, guesser), theHost()]);
    } finally {
      clearInterval(ticker);
    }
    const s = spread(logins);
    return {
      addresses,
      seconds,
      guesses: n,
      checked,
      held,
      checkedPerMinute: (checked * 60) / seconds,
      hostLogins: logins.length,
      hostRefused: refused,
      hostP50Ms: s.p50,
      hostMaxMs: s.max,
    };
  } finally {
    await hub.close();
    rmSync(data, { recursive: true, force: true });
  }
}

export const guessingBench: Bench = {
  name: "guessing",
  summary:
    "PIN guessing from 1, 300 and 20,000 addresses: guesses the hub checked a minute; the host's logins meanwhile",
  async run(o) {
    const seconds = o.seconds ?? 60;
    const only = o.flags?.addresses;
    const rows: GuessRow[] = [];
    for (const a of only ? [only] : [1, 300, 20_000]) {
      console.error(`guessing from ${a} address${a === 1 ? "" : "es"} for ${seconds} s…`);
      rows.push(await row(a, seconds, (s) => console.error(s)));
    }
    if (o.json) {
      console.log(JSON.stringify(rows, null, 2));
      return;
    }
    console.log(
      "| addresses | guesses | checked | held back | checked / min | host logins (refused) | host p50 / max ms |",
    );
    console.log("|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(
        `| ${r.addresses} | ${r.guesses} | ${r.checked} | ${r.held} | ${r.checkedPerMinute.toFixed(1)} | ` +
          `${r.hostLogins} (${r.hostRefused}) | ${r.hostP50Ms.toFixed(1)} / ${r.hostMaxMs.toFixed(1)} |`,
      );
    }
  },
};
