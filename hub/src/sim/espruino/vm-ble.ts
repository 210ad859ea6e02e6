// A Puck.js's Bluetooth LE on the vm's board, as Espruino's nRF52 port has it (targets/nrf5x/bluetooth.c,
// libs/bluetooth/jswrap_bluetooth.c): the board's link device (`Bluetooth`) is its Nordic UART, one central at a time.
// A central that connects takes the JavaScript console unless the firmware forced it where it is
// (jsiIsConsoleDeviceForced); when it goes, the console goes back to the default device (a Puck.js's Serial1) if it
// was still there. While the console is on Bluetooth, what a central types runs in the firmware's scope, as on a
// Puck. The firmware hears `NRF.on("connect" | "disconnect")`; its NRF.setSecurity calls are recorded (pairing and
// encryption are the radio's: no model here). A central is connected from boot, as when the bridge was there before
// the gun started.
import type { GunBle } from "./gun.js";
import type { VmSerial } from "./vm-serial.js";
import { shown } from "./vm-telnet.js";

export interface VmBle extends GunBle {
  /** the firmware's `NRF` */
  NRF: {
    on(ev: string, fn: (a: unknown) => void): void;
    setSecurity(o: unknown): void;
  };
}

/** `run` runs code in the firmware's global scope; `serial` is where the console is; `guard` runs a callback into it. */
export function vmBle(serial: VmSerial, run: (js: string) => unknown, guard: (fn: () => void) => void): VmBle {
  const handlers: Record<string, ((a: unknown) => void)[]> = { connect: [], disconnect: [] };
  const security: unknown[] = [];
  let connected = true;
  const emit = (ev: string, a: unknown) => {
    for (const fn of handlers[ev] ?? []) guard(() => fn(a));
  };
  serial.repl((js) => {
    try {
      return `=${shown(run(js))}`;
    } catch (e) {
      return `Uncaught ${e instanceof Error ? e.message : String(e)}`;
    }
  });
  return {
    NRF: {
      on(ev, fn) {
        handlers[ev]?.push(fn);
      },
      setSecurity(o) {
        if (o !== undefined && (o === null || typeof o !== "object"))
          throw new Error(`Expecting Object or undefined, got ${typeof o}`);
        security.push(JSON.parse(JSON.stringify(o ?? null)));
      },
    },
    security,
    get connected() {
      return connected;
    },
    connect(addr = "c0:ff:ee:00:00:02 public") {
      if (connected) this.disconnect();
      connected = true;
      serial.moveTo("Bluetooth", true);
      emit("connect", addr);
    },
    disconnect() {
      if (!connected) return;
      connected = false;
      serial.moveTo("Serial1", false);
      // 0x13: the remote user ended the connection
      emit("disconnect", 0x13);
    },
  };
}
