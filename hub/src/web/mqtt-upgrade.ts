// MQTT over WebSocket at /mqtt: the upgrade handed to the broker as a stream, with the address it came from; a page
// of another site is refused.
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { createWebSocketStream, type WebSocketServer } from "ws";
import type { OncePerKey } from "../log.js";

/**
 * A WebSocket from a page of another site (a guest's browser on the table's WiFi, visiting a page that wants to act
 * on the hub) is refused: a browser always says where the page came from. Clients that are no browser say nothing.
 */
export function foreignOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** The server's `upgrade` handler: /mqtt to `mqtt` (absent: no broker here), anything else 404. */
export function mqttUpgrade(
  wss: WebSocketServer,
  mqtt: ((stream: Duplex, address: string | undefined) => void) | undefined,
  refusals: OncePerKey,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/mqtt" || !mqtt) {
      socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      return;
    }
    if (foreignOrigin(req.headers.origin, req.headers.host)) {
      const from = req.socket.remoteAddress;
      refusals.warn(
        `origin:${from}`,
        { origin: req.headers.origin?.slice(0, 120), from },
        "refused /mqtt: a page of another site",
      );
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    (socket as Socket).setNoDelay?.(true);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on("error", () => stream.destroy());
      mqtt(stream, req.socket.remoteAddress);
    });
  };
}
