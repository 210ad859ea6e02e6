// Espruino's `dgram` for the vm runtime (vm-gun.ts), on Node's UDP: createSocket("udp4") → a socket that sends on
// its first `send` (broadcast allowed, as Espruino sets SO_BROADCAST on its UDP sockets) and gets the answers as
// `message` events with the payload as a string of bytes and rinfo {address, port, size}. `bind` listens on a port.
import { createSocket, type Socket } from "node:dgram";

export interface VmDgram {
  /** the module the firmware's require("dgram") gets */
  module: { createSocket(type: unknown): unknown };
  /** datagrams the firmware sent: [address, port, text] */
  sent: [string, number, string][];
  /** closes every socket the firmware opened */
  closeAll(): void;
}

/** `guard` runs a callback into the firmware (errors go to the board's clock, as the other callbacks do). */
export function vmDgram(guard: (fn: () => void) => void): VmDgram {
  const open = new Set<Socket>();
  const sent: [string, number, string][] = [];
  const module = {
    createSocket(_type: unknown) {
      const s = createSocket({ type: "udp4", reuseAddr: true });
      open.add(s);
      const handlers: ((msg: string, rinfo: unknown) => void)[] = [];
      let bound: Promise<void> | undefined;
      const closed = () => !open.has(s);
      const bind = (port: number) => {
        bound ??= new Promise<void>((resolve) => {
          s.bind(port, () => {
            if (!closed()) s.setBroadcast(true);
            resolve();
          });
        });
        return bound;
      };
      s.on("error", () => {});
      s.on("message", (b, r) => {
        const text = b.toString("latin1");
        for (const h of handlers) guard(() => h(text, { address: r.address, port: r.port, size: b.length }));
      });
      const api = {
        on(ev: string, fn: (msg: string, rinfo: unknown) => void) {
          if (ev === "message") handlers.push(fn);
          return api;
        },
        send(msg: unknown, port: number, address: string) {
          if (closed()) throw new Error("This socket is closed");
          const text = String(msg);
          sent.push([address, port, text]);
          bind(0).then(() => {
            if (!closed()) s.send(Buffer.from(text, "latin1"), port, address, () => {});
          });
        },
        bind(port: number, cb?: (s: unknown) => void) {
          bind(port).then(() => cb && guard(() => cb(api)));
          return api;
        },
        close() {
          if (closed()) return;
          open.delete(s);
          s.close();
        },
      };
      return api;
    },
  };
  return {
    module,
    sent,
    closeAll() {
      for (const s of open) s.close();
      open.clear();
    },
  };
}
