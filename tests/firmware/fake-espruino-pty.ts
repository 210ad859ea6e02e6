// A fake Espruino console on a pseudo-terminal (fake_espruino_pty.py), for code that opens a
// serial device by path, like EspruinoTools.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface FakeState {
  storage: Record<string, string>;
  lines: string[];
  unknown: string[];
  /** Storage files the flash erased */
  erased: string[];
  loads: number;
  resets: number;
  ctrlc: number;
  repl: number;
}

export function hasPython(): boolean {
  return spawnSync("python3", ["-c", "import pty"], { stdio: "ignore" }).status === 0;
}

export interface FakePty {
  path: string;
  /** stop the fake and get what it saw and stored */
  stop(): Promise<FakeState>;
}

export function fakeEspruinoPty(opts: { silent?: boolean; files?: Record<string, string> } = {}): Promise<FakePty> {
  const script = fileURLToPath(new URL("./fake_espruino_pty.py", import.meta.url));
  const files = Object.entries(opts.files ?? {}).flatMap(([k, v]) => ["--file", `${k}=${v}`]);
  const child: ChildProcess = spawn("python3", [script, ...(opts.silent ? ["--silent"] : []), ...files], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString("latin1");
      const nl = out.indexOf("\n");
      if (nl < 0 || !out.startsWith("/dev/")) return;
      const path = out.slice(0, nl);
      resolve({
        path,
        stop: () =>
          new Promise((res, rej) => {
            child.on("close", () => {
              try {
                res(JSON.parse(out.slice(nl + 1)) as FakeState);
              } catch (e) {
                rej(e);
              }
            });
            child.stdin?.end();
          }),
      });
    });
  });
}
