// The start-up lines that tell people where phones and guns reach the hub from the local network (cng hub).

/** What the lines need of a running hub (its `Hub` has it): net/ sits below hub.ts and does not import it. */
export interface HubAddresses {
  lan: { dashboard: string[]; guns: string[]; ca?: string[] };
  ports: { discovery: number | null };
  config: { bind: string };
}

const pad = (s: string) => `  ${s.padEnd(13)}`;

export function lanLines(hub: HubAddresses): string[] {
  const out: string[] = [];
  const { dashboard, guns } = hub.lan;
  if (dashboard.length) out.push(`${pad("phones:")}${dashboard.join("  ")}`);
  else if (hub.config.bind === "0.0.0.0" || hub.config.bind === "::")
    out.push(
      `${pad("phones:")}no network address but 127.0.0.1: join a WiFi, or make this laptop the hotspot (docs/network.md)`,
    );
  else out.push(`${pad("phones:")}none: the hub listens on ${hub.config.bind} only (--bind)`);
  if (hub.lan.ca?.length) {
    out.push(`${pad("certificate:")}${hub.lan.ca[0]} — install it on each phone once (docs/security.md#https)`);
  }
  if (guns.length) {
    const [host, port] = guns[0]!.split(/:(?=\d+$)/);
    out.push(`${pad("guns:")}${guns.join("  ")}  (cng flash --hub ${host} --hub-port ${port})`);
  } else out.push(`${pad("guns:")}none can reach this broker from the network`);
  const d = hub.ports.discovery;
  out.push(
    d === null
      ? `${pad("discovery:")}off: guns must reach the address they were flashed with`
      : `${pad("discovery:")}UDP ${d}: a gun that cannot reach its flashed address asks, and is told the one above`,
  );
  return out;
}
