// Host devices: a browser that logged in with the PIN asks for its own token, the host lists and revokes them.

import { DEVICE_NAME_MAX, type DeviceId } from "../../store/devices.js";
import { all, only } from "../args.js";
import type { OpContext } from "../context.js";
import { fail, type Op } from "../types.js";

const ID_RE = /^[A-Za-z0-9_-]{1,16}$/;

export const devicesEnrol: Op<{ name: string }, OpContext> = {
  name: "devices.enrol",
  need: "host",
  summary: "a token for this device: it logs in as the host with it from then on, without the PIN (shown once)",
  parse(a) {
    const n = a.name;
    const name =
      typeof n === "string" && n.length <= DEVICE_NAME_MAX
        ? { ok: true as const, v: n }
        : fail("bad-args", `name must be text of up to ${DEVICE_NAME_MAX} characters`);
    return only(a, ["name"]) ?? all([name], () => ({ name: name.ok ? name.v : "" }));
  },
  run(ctx, _c, args) {
    const r = ctx.devices.enrol(args.name, ctx.now());
    if ("error" in r) return fail("full", r.error);
    return { ok: true, r: { device: r.device, token: r.token } };
  },
};

export const devicesList: Op<Record<string, never>, OpContext> = {
  name: "devices.list",
  need: "host",
  summary: "the devices that log in as the host with a token (`self`: the one asking)",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run(ctx, c) {
    const self = c.role === "host" ? c.device : undefined;
    return { ok: true, r: { devices: ctx.devices.list().map((d) => ({ ...d, self: d.id === self })) } };
  },
};

export const devicesRevoke: Op<{ id: DeviceId }, OpContext> = {
  name: "devices.revoke",
  need: "host",
  summary: "a device's token stops working at once; its connections are closed (it needs the PIN again)",
  parse(a) {
    const v = a.id;
    const id =
      typeof v === "string" && ID_RE.test(v) ? { ok: true as const, v } : fail("bad-args", "id must be a device id");
    return only(a, ["id"]) ?? all([id], () => ({ id: id.ok ? id.v : "" }));
  },
  run(ctx, _c, args) {
    if (!ctx.devices.revoke(args.id)) return fail("unknown-device", `no host device ${args.id}`);
    ctx.kickDevice(args.id);
    return { ok: true, r: { id: args.id } };
  },
};
