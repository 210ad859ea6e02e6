// A simulated gun's serial link plugged into the hub's serial bridge (hub/src/serial) in this process: its USB cable,
// or a Puck.js's Bluetooth (the Nordic UART carries the same lines, hardware/SERIAL.md). serialport's MockBinding
// stands for the device, so the bridge's own port handling, line checks and MQTT session as the gun are all in the
// path — what `cng sim --board puckjs` needs to put a gun without WiFi on the broker as itself.
import { SerialPortMock } from "serialport";
import type { Logger } from "../../log.js";
import { silentLogger } from "../../log.js";
import { type BridgeCredentials, type SerialGunBridge, startSerialGunBridge } from "../../serial/index.js";
import type { Gun } from "./gun.js";

/** What the bridge's mock device is to us: bytes in (emitData), bytes out (write). */
export interface MockPort {
  readonly isOpen: boolean;
  emitData(data: Buffer): void;
  write(data: Buffer): Promise<void>;
}

// serialport's own MockBinding instance (the ESM and CommonJS builds of binding-mock are two registries)
const MockBinding = SerialPortMock.binding;
let n = 0;

/** Wires the board's link device to the mock device the bridge holds open: bytes both ways, as a cable would (the
 * tests plug guns in with it too). */
export function plug(g: Gun, port: MockPort): void {
  const toPc = (d: string) => port.isOpen && port.emitData(Buffer.from(d, "latin1"));
  toPc(g.usb.out);
  g.usb.onData(toPc);
  const write = port.write.bind(port);
  port.write = async (b: Buffer) => {
    await write(b);
    g.usb.send(b.toString("latin1"));
  };
}

/**
 * The gun's serial link bridged onto the broker at `mqttUrl` as the gun itself; resolves once the cable is in. Once the
 * gun is paired, `credentials` (the hub's) give the bridge its login and the answers that prove the link.
 */
export async function bridgeGun(
  g: Gun,
  o: { mqttUrl: string; table: string; log?: Logger; credentials?: BridgeCredentials },
): Promise<SerialGunBridge> {
  const path = `/dev/cng-sim-${process.pid}-${++n}`;
  MockBinding.createPort(path, { echo: false, record: false });
  const b = startSerialGunBridge({
    path,
    mqttUrl: o.mqttUrl,
    table: o.table,
    log: o.log ?? silentLogger(),
    openPort: (p, baudRate) => new SerialPortMock({ path: p, baudRate, autoOpen: false }),
    retryMs: 0,
    ...(o.credentials ? { credentials: o.credentials } : {}),
  });
  const end = Date.now() + 3000;
  while (!b.port?.isOpen) {
    if (Date.now() > end) {
      await b.close();
      throw new Error(`the serial bridge for ${g.board.name} did not open its port`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  plug(g, b.port.port as unknown as MockPort);
  return b;
}

/** The board carries no WiFi (a Puck.js): it reaches the broker only through a bridge. */
export function needsBridge(g: Gun): boolean {
  return !(g.board.links ?? ["wifi"]).includes("wifi");
}
