// Espruino's `net` for the vm's board, on Node's TCP: socket data comes as strings of bytes, as on a board.
import { connect, type Socket } from "node:net";
import { Emitter } from "./emitter.js";

export interface VmNet {
  /** the module the firmware's require("net") gets */
  module: { connect(opts: { host: string; port: number }, cb: () => void): unknown };
  /** every socket the firmware opened */
  sockets: Socket[];
}

/** `guard` runs a callback into the firmware (errors go to the board's clock, as the other callbacks do). */
export function vmNet(guard: (fn: () => void) => void): VmNet {
  const sockets: Socket[] = [];
  const module = {
    connect(opts: { host: string; port: number }, cb: () => void) {
      const em = new Emitter();
      const s = connect({ host: opts.host, port: opts.port });
      sockets.push(s);
      s.setNoDelay(true);
      s.on("connect", () => guard(cb));
      s.on("data", (b: Buffer) => guard(() => em.emit("data", b.toString("latin1"))));
      s.on("error", (e) => guard(() => em.emit("error", e.message)));
      s.on("close", () => guard(() => em.emit("close")));
      return {
        on: (ev: string, fn: (...a: unknown[]) => void) => em.on(ev, fn),
        write: (d: string) => {
          if (!s.destroyed) s.write(Buffer.from(String(d), "latin1"));
        },
        end: () => {
          s.end();
          s.destroySoon();
        },
      };
    },
  };
  return { module, sockets };
}
