// A Puck.js in Chromium's own Bluetooth emulation (the CDP domain BluetoothEmulation, on the browser session), its
// Nordic UART wired to a gun on the real Espruino interpreter running the real Puck bundle (`gun.usb`, the board's
// `Bluetooth` device). The page sees a real Web Bluetooth device: the chooser (DeviceAccess.deviceRequestPrompted →
// selectPrompt), GATT connect and service discovery, startNotifications on RX, every write to TX (the bytes go to
// the gun), `gattserverdisconnected` when the link drops, and `gatt.connect()` again when it is back in range.
//
// What the emulation cannot do (Chromium 156): send a notification from the peripheral — it has no command for it,
// and an unsolicited read response is dropped. So the gun's bytes travel as the answers to reads of RX: a small init
// script remembers the RX characteristic the page subscribed to, and when the gun has bytes the test asks the page
// to read it (`readValue()`) until it reads nothing; the emulation hands each read our bytes and Chromium fires
// `characteristicvaluechanged` on that characteristic with them, in 20-byte packets (the default ATT MTU) — the very
// event the library listens to for notifications. Everything else in the path is the browser's own.
import type { Browser, CDPSession, Page } from "playwright-core";
import type { Gun } from "../../hub/src/sim/espruino/index.js";
import { sleep } from "../fakes/hub.js";

export const NORDIC_UART = "6e400001-b5a3-f393-e0a9-e50e24dcca9e";
const RX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";
const TX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e";
/** the Client Characteristic Configuration descriptor: startNotifications writes it */
const CCCD = "00002902-0000-1000-8000-00805f9b34fb";
/** bytes per packet from the gun: the default ATT MTU (23) less its header */
const PACKET = 20;
/** HCI "Page Timeout": the answer to a connection attempt while the Puck is out of range */
const OUT_OF_RANGE = 0x04;

/** Chromium's own flag for Web Bluetooth on Linux (without it, navigator.bluetooth is undefined there). */
export const BLUETOOTH_FLAG = "--enable-experimental-web-platform-features";

/**
 * The page half of carrying notifications as reads (see the top of this file): `__cngNotify(name)` reads the RX
 * characteristic of the device named `name` until a read comes back empty.
 */
export function notifyByReads(): void {
  const w = window as unknown as Record<string, unknown>;
  const Char = w.BluetoothRemoteGATTCharacteristic as
    | { prototype: { startNotifications: () => Promise<unknown> } }
    | undefined;
  if (!Char) return;
  const rxUuid = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";
  type Rx = { c: { readValue(): Promise<DataView> }; busy: boolean; again: boolean };
  const rx = new Map<string, Rx>();
  const start = Char.prototype.startNotifications;
  Char.prototype.startNotifications = function (this: any) {
    if (this.uuid === rxUuid) rx.set(this.service.device.name, { c: this, busy: false, again: false });
    return start.call(this);
  };
  w.__cngNotify = async (name: string) => {
    const s = rx.get(name);
    if (!s) return "none";
    if (s.busy) {
      s.again = true;
      return;
    }
    s.busy = true;
    try {
      do {
        s.again = false;
        while ((await s.c.readValue()).byteLength > 0);
      } while (s.again);
    } catch {
      // the link dropped: the test's side starts again on the next connection
    } finally {
      s.busy = false;
    }
  };
}

/** Turns on Chromium's Bluetooth emulation: a powered, LE-capable central (the browser session only has it). */
export async function emulateBluetooth(browser: Browser): Promise<CDPSession> {
  const central = await browser.newBrowserCDPSession();
  await central.send("BluetoothEmulation.enable", { state: "powered-on", leSupported: true });
  return central;
}

/** The browser's Bluetooth chooser on `page`: each prompt picks the Puck named by `choose` (once per prompt). */
export async function chooser(page: Page): Promise<{ next: EmulatedPuck | null }> {
  const s = await page.context().newCDPSession(page);
  const pick: { next: EmulatedPuck | null } = { next: null };
  const answered = new Set<string>();
  s.on("DeviceAccess.deviceRequestPrompted", (e) => {
    const puck = pick.next;
    if (!puck || answered.has(e.id) || !e.devices.some((d) => d.id === puck.address)) return;
    answered.add(e.id);
    pick.next = null;
    puck.page = page;
    void s.send("DeviceAccess.selectPrompt", { id: e.id, deviceId: puck.address }).catch(() => {});
  });
  await s.send("DeviceAccess.enable");
  return pick;
}

const b64 = (s: string) => Buffer.from(s, "latin1").toString("base64");

export class EmulatedPuck {
  /** the page that picked it (it reads RX for us) */
  page: Page | null = null;
  /** answers connection attempts (false: out of range, they fail) */
  inRange = true;
  /** GATT connections made so far */
  connections = 0;
  /** everything the page wrote to the gun */
  written = "";
  private rx = "";
  private tx = "";
  private notifying = false;
  private queue = "";
  private pumping = false;

  private constructor(
    private readonly central: CDPSession,
    readonly gun: Gun,
    readonly address: string,
    readonly name: string,
  ) {}

  /** A Puck advertising as `name` (Puck.js xxxx, as Espruino names it) with the Nordic UART, wired to `gun`. */
  static async add(central: CDPSession, gun: Gun, address: string, name: string): Promise<EmulatedPuck> {
    const p = new EmulatedPuck(central, gun, address, name);
    await central.send("BluetoothEmulation.simulatePreconnectedPeripheral", {
      address,
      name,
      manufacturerData: [],
      knownServiceUuids: [NORDIC_UART],
    });
    await p.addServices();
    central.on("BluetoothEmulation.gattOperationReceived", (e) => {
      if (e.address !== address) return;
      const ok = e.type !== "connection" || p.inRange;
      if (e.type === "connection" && ok) {
        p.connections++;
        // the board hears the central come (it was there from boot for the first one)
        if (gun.ble && !gun.ble.connected) gun.ble.connect();
      }
      void central
        .send("BluetoothEmulation.simulateGATTOperationResponse", {
          address,
          type: e.type,
          code: ok ? 0 : OUT_OF_RANGE,
        })
        .catch(() => {});
    });
    central.on("BluetoothEmulation.descriptorOperationReceived", (e) => {
      if (!e.descriptorId.startsWith(`${address}_`)) return;
      void central
        .send("BluetoothEmulation.simulateDescriptorOperationResponse", {
          descriptorId: e.descriptorId,
          type: e.type,
          code: 0,
        })
        .catch(() => {});
    });
    central.on("BluetoothEmulation.characteristicOperationReceived", (e) => p.operation(e));
    gun.usb.onData((t) => p.fromGun(t));
    return p;
  }

  /** The Nordic UART service with its RX and TX characteristics (the emulation forgets them at a disconnection). */
  private async addServices(): Promise<void> {
    const c = this.central;
    const { serviceId } = await c.send("BluetoothEmulation.addService", {
      address: this.address,
      serviceUuid: NORDIC_UART,
    });
    // RX: the Puck's notify characteristic (`read` too: the emulation carries the gun's bytes as reads)
    const rx = await c.send("BluetoothEmulation.addCharacteristic", {
      serviceId,
      characteristicUuid: RX,
      properties: { notify: true, read: true },
    });
    await c.send("BluetoothEmulation.addDescriptor", { characteristicId: rx.characteristicId, descriptorUuid: CCCD });
    const tx = await c.send("BluetoothEmulation.addCharacteristic", {
      serviceId,
      characteristicUuid: TX,
      properties: { write: true, writeWithoutResponse: true },
    });
    this.rx = rx.characteristicId;
    this.tx = tx.characteristicId;
  }

  private operation(e: { characteristicId: string; type: string; data?: string }): void {
    const id = e.characteristicId;
    if (id !== this.rx && id !== this.tx) return;
    const answer = (data?: string) =>
      void this.central
        .send("BluetoothEmulation.simulateCharacteristicOperationResponse", {
          characteristicId: id,
          type: e.type as "read",
          code: 0,
          ...(data === undefined ? {} : { data }),
        })
        .catch(() => {});
    if (e.type === "write" && id === this.tx) {
      answer();
      const text = Buffer.from(e.data ?? "", "base64").toString("latin1");
      this.written += text;
      this.gun.usb.send(text);
    } else if (e.type === "subscribe-to-notifications") {
      this.notifying = true;
      this.pumping = false;
      answer();
      this.pump();
    } else if (e.type === "unsubscribe-from-notifications") {
      this.notifying = false;
      answer();
    } else if (e.type === "read") {
      const packet = this.queue.slice(0, PACKET);
      this.queue = this.queue.slice(PACKET);
      if (!packet) this.pumping = false;
      answer(b64(packet));
    } else answer();
  }

  /** The gun's bytes: to the page while it listens; dropped while nobody is connected (as a Puck's radio does). */
  private fromGun(t: string): void {
    if (!this.notifying) return;
    this.queue += t;
    this.pump();
  }

  private pump(): void {
    if (this.pumping || !this.queue || !this.page) return;
    this.pumping = true;
    this.page
      .evaluate((n) => (window as any).__cngNotify?.(n) ?? "none", this.name)
      .then(
        (r) => {
          if (r === "none") this.pumping = false;
        },
        () => {
          this.pumping = false;
        },
      );
  }

  /**
   * The Puck goes out of range: the link drops, and connecting again fails until back(). (The emulation ignores a
   * disconnection while a read waits for its answer: the gun falls silent first, the page's last read comes back
   * empty, then the link drops.)
   */
  async drop(): Promise<void> {
    this.inRange = false;
    this.notifying = false;
    this.queue = "";
    const end = Date.now() + 3000;
    while (this.pumping && Date.now() < end) await sleep(10);
    await sleep(100);
    this.pumping = false;
    this.gun.ble?.disconnect();
    await this.central.send("BluetoothEmulation.simulateGATTDisconnection", { address: this.address });
    await this.addServices();
  }

  /** Back in range: the next connection attempt succeeds. */
  back(): void {
    this.inRange = true;
  }
}
