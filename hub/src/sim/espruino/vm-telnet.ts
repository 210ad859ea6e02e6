// Espruino's telnet console on the vm's board, as its ESP32 and ESP8266 builds have it
// (libs/network/telnet/jswrap_telnet.c): on at every boot (`tnSrvMode = MODE_ON`), listening from the first idle
// after the boot code (both ports count the network online from their start), until the firmware calls
// `require("TelnetServer").setOptions({mode: "off"})`. A client takes the JavaScript console, unless the firmware
// forced it where it is (`setConsole(true)`): each line it sends runs in the firmware's global scope and its value
// comes back as Espruino's REPL prints it (`=value`), what the firmware prints goes to it meanwhile. One client at a
// time, a new one closes the old. Here on 127.0.0.1, on a port of the gun's own (a board's is 23).
import { createServer, type Server, type Socket } from "node:net";
import type { VmSerial } from "./vm-serial.js";

export interface VmTelnet {
  /** what the firmware's require("TelnetServer") gets */
  module: { setOptions(o: { mode?: string }): void };
  /** the port the console listens on while it is on */
  port: Promise<number>;
  /** the boot code has run: the interpreter's first idle */
  booted(): void;
  close(): void;
}

/** A free TCP port on 127.0.0.1 (the kernel's choice, let go at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** How Espruino's REPL prints a value. */
export function shown(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (v !== null && typeof v === "object") {
    try {
      return JSON.stringify(v);
    } catch {
      return String(v);
    }
  }
  return String(v);
}

/** Each line the connection sends, run while it holds the console (`holds`), its value or error said back. */
function repl(s: Socket, run: (js: string) => unknown, say: (t: string) => void, holds: () => boolean): void {
  let line = "";
  s.on("data", (b: Buffer) => {
    line += b.toString("latin1");
    for (let i = line.indexOf("\n"); i >= 0; i = line.indexOf("\n")) {
      const js = line.slice(0, i).replace(/\r$/, "");
      line = line.slice(i + 1);
      if (!holds()) return;
      try {
        say(`=${shown(run(js))}\r\n>`);
      } catch (e) {
        say(`Uncaught ${e instanceof Error ? e.message : String(e)}\r\n>`);
      }
    }
  });
}

/** `run` runs code in the firmware's global scope; `serial` is where the console is. */
export function vmTelnet(run: (js: string) => unknown, serial: VmSerial): VmTelnet {
  let on = true;
  let idle = false;
  let closed = false;
  let server: Server | undefined;
  let client: Socket | undefined;
  const port = freePort();
  const release = (s: Socket) => {
    if (client !== s) return;
    client = undefined;
    serial.away(undefined);
  };
  const accept = (s: Socket) => {
    client?.destroy();
    if (!serial.movable()) {
      // the console stays where the firmware forced it: the connection carries nothing
      s.on("error", () => {});
      return;
    }
    client = s;
    const say = (t: string) => {
      if (!s.destroyed) s.write(t, "latin1");
    };
    serial.away(say);
    repl(s, run, say, () => client === s);
    s.on("close", () => release(s));
    s.on("error", () => release(s));
    say(">");
  };
  /** Espruino's idle: listening while on, closed (the client too) while off */
  const update = () => {
    if (closed || !idle) return;
    if (on && !server) {
      const srv = createServer(accept);
      server = srv;
      srv.on("error", () => {});
      void port.then((p) => {
        if (server === srv && !closed) srv.listen(p, "127.0.0.1");
      });
    } else if (!on && server) {
      server.close();
      server = undefined;
      client?.destroy();
    }
  };
  return {
    module: {
      setOptions(o: { mode?: string }) {
        if (!o || typeof o !== "object") throw new Error("Expecting Object");
        if (o.mode === "on") on = true;
        else if (o.mode === "off") on = false;
        else if (o.mode !== undefined) throw new Error("Unknown mode value");
        setImmediate(update);
      },
    },
    port,
    booted() {
      setImmediate(() => {
        idle = true;
        update();
      });
    },
    close() {
      closed = true;
      server?.close();
      server = undefined;
      client?.destroy();
    },
  };
}
