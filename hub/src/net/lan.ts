// This machine's addresses on the local network: what the start-up lines name for guns and phones, and which of
// them a discovery query came in on (discovery.ts). IPv4 only: the guns' Espruino network stack is IPv4.
import { networkInterfaces } from "node:os";

export interface LanAddress {
  /** interface name (eth0, wlan0, …) */
  iface: string;
  address: string;
  netmask: string;
}

/** The machine's IPv4 addresses, loopback left out unless `withLoopback`. */
export function lanAddresses(withLoopback = false): LanAddress[] {
  const out: LanAddress[] = [];
  for (const [iface, list] of Object.entries(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family !== "IPv4" || (a.internal && !withLoopback)) continue;
      out.push({ iface, address: a.address, netmask: a.netmask });
    }
  }
  return out;
}

/** IPv4 dotted quad → 32-bit number, or null when it is not one. */
export function ip4(s: string): number | null {
  const p = s.split(".");
  if (p.length !== 4) return null;
  let n = 0;
  for (const x of p) {
    if (!/^\d{1,3}$/.test(x) || Number(x) > 255) return null;
    n = n * 256 + Number(x);
  }
  return n;
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}

export function isUnspecified(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "";
}

/**
 * The address of this machine's interface that `remote` reaches it on: 127.0.0.1 over loopback; the address itself
 * when `remote` is one of this machine's own (a client on this machine); else the interface whose subnet holds
 * `remote`. Null when none does (a routed client: the caller may ask the kernel, see routeSource).
 */
export function localAddressFor(remote: string, addrs: LanAddress[] = lanAddresses()): string | null {
  if (isLoopback(remote)) return "127.0.0.1";
  const r = ip4(remote);
  if (r === null) return null;
  for (const a of addrs) if (a.address === remote) return a.address;
  for (const a of addrs) {
    const ip = ip4(a.address);
    const mask = ip4(a.netmask);
    if (ip === null || mask === null) continue;
    // >>> 0: compare as unsigned 32-bit
    if ((ip & mask) >>> 0 === (r & mask) >>> 0) return a.address;
  }
  return null;
}

/** Whether `remote` is this machine (loopback, or one of its own addresses). */
export function isThisMachine(remote: string, addrs: LanAddress[] = lanAddresses()): boolean {
  return isLoopback(remote) || addrs.some((a) => a.address === remote);
}

/** interface names of container and VM bridges and VPN tunnels */
const VIRTUAL = /^(docker|br-|veth|virbr|vmnet|vboxnet|lxc|lxd|podman|cni|flannel|tun|tap|wg|tailscale|zt)/;

/**
 * Where people and guns reach this hub from the local network: the dashboard for phones and the broker
 * (`host:port`) for guns, one per LAN address. Empty on a hub bound to loopback.
 */
export function lanUrls(
  bind: string,
  httpPort: number,
  broker: { host: string; port: number } | null,
  all: LanAddress[] = lanAddresses(),
): { dashboard: string[]; guns: string[] } {
  // containers' and VMs' bridges are no network a gun or a phone is on (unless they are all there is)
  const real = all.filter((a) => !VIRTUAL.test(a.iface));
  const addrs = real.length ? real : all;
  const mine = isUnspecified(bind) ? addrs.map((a) => a.address) : isLoopback(bind) ? [] : [bind];
  let guns: string[] = [];
  if (broker) {
    if (isUnspecified(broker.host)) guns = addrs.map((a) => `${a.address}:${broker.port}`);
    else if (!isLoopback(broker.host)) guns = [`${broker.host}:${broker.port}`];
  }
  return { dashboard: mine.map((a) => `http://${a}:${httpPort}/`), guns };
}

/** Dashboard URLs (http://host:port/) as the HTTPS listener at `httpsPort` has them. */
export function onHttps(urls: readonly string[], httpsPort: number): string[] {
  return urls.map((u) => u.replace(/^http:(.*):\d+\/$/, `https:$1:${httpsPort}/`));
}
