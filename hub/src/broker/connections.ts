// Every connection, TCP or WebSocket, before MQTT: counted against its address (a few dozen at most, the laptop
// aside), its packets' sizes guarded from the first byte (size-guard.ts), its address kept for the limits.
import { createServer, type Server, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Aedes } from "aedes";
import { Counter } from "../access/budget.js";
import { isOwnMachine, sourceOf } from "../access/limiter.js";
import { CLIENT_PACKET_BYTES, CONNECTIONS_PER_SOURCE } from "./limits.js";
import type { BrokerSessions } from "./sessions.js";
import { guardedStream, PacketSizeScanner } from "./size-guard.js";

export type Handle = (raw: Duplex, address: string | undefined) => void;

export function connections(aedes: Aedes, st: BrokerSessions): Handle {
  const perSource = new Counter(CONNECTIONS_PER_SOURCE);
  return (raw, address) => {
    const from = sourceOf(address, "unknown");
    if (!isOwnMachine(from) && !perSource.add(from)) {
      st.refusals.warn(
        `conns:${from}`,
        { from },
        `refused connection: over ${CONNECTIONS_PER_SOURCE} from this address`,
      );
      raw.destroy();
      return;
    }
    if (!isOwnMachine(from)) raw.once("close", () => perSource.remove(from));
    const scanner = new PacketSizeScanner(CLIENT_PACKET_BYTES);
    const stream = guardedStream(raw, scanner, () => {
      st.refusals.warn(`size:${from}`, { from }, "refused connection: packet too large");
    });
    st.scanners.set(stream, scanner);
    if (address) st.addresses.set(stream, address);
    aedes.handle(stream);
  };
}

/** The broker's TCP port, listening. */
export async function listenTcp(handle: Handle, port: number, bind: string): Promise<Server> {
  const tcp = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    socket.on("error", () => {});
    handle(socket, socket.remoteAddress);
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen(port, bind, () => {
      tcp.off("error", reject);
      resolve();
    });
  });
  return tcp;
}
