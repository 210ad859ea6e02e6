// Host devices: a browser that logged in with the PIN asks for its own token, the host lists and revokes them.
import { ok, refuse } from "@cng/protocol";
import { DEVICE_NAME_MAX } from "../../store/devices.js";
import { badArgs, none } from "../args.js";
import type { Op } from "../types.js";

const ID_RE = /^[A-Za-z0-9_-]{1,16}$/;

export const devicesEnrol: Op<"devices.enrol"> = {
  name: "devices.enrol",
  need: "host",
  summary: "a token for this device: it logs in as the host with it from then on, without the PIN (shown once)",
  args: ["name"],
  parse(a) {
    const n = a.name;
    return typeof n === "string" && n.length <= DEVICE_NAME_MAX
      ? ok({ name: n })
      : badArgs(`name must be text of up to ${DEVICE_NAME_MAX} characters`);
  },
  run(ctx, _c, args) {
    const r = ctx.devices.enrol(args.name, ctx.now());
    if ("error" in r) return refuse("full", r.error);
    return ok({ device: r.device, token: r.token });
  },
};

export const devicesList: Op<"devices.list"> = {
  name: "devices.list",
  need: "host",
  summary: "the devices that log in as the host with a token (`self`: the one asking)",
  args: [],
  parse: none,
  run(ctx, c) {
    const self = c.role === "host" ? c.device : undefined;
    return ok({ devices: ctx.devices.list().map((d) => ({ ...d, self: d.id === self })) });
  },
};

export const devicesRevoke: Op<"devices.revoke"> = {
  name: "devices.revoke",
  need: "host",
  summary: "a device's token stops working at once; its connections are closed (it needs the PIN again)",
  args: ["id"],
  parse(a) {
    const v = a.id;
    return typeof v === "string" && ID_RE.test(v) ? ok({ id: v }) : badArgs("id must be a device id");
  },
  run(ctx, _c, args) {
    if (!ctx.devices.revoke(args.id)) return refuse("unknown-device", `no host device ${args.id}`);
    ctx.kickDevice(args.id);
    return ok({ id: args.id });
  },
};

const B64U_RE = /^[A-Za-z0-9_-]{1,128}$/;

export const loginStart: Op<"login.start"> = {
  name: "login.start",
  need: "anyone",
  summary: "the PIN exchange's first move, from a device that knows the PIN: `X` its point; the hub's point `Y`",
  args: ["X"],
  parse(a) {
    return typeof a.X === "string" && B64U_RE.test(a.X) ? ok({ X: a.X }) : badArgs("X must be a point, base64url");
  },
  run: (ctx, _c, args, req) => ctx.pinLogin.start(req.client, req.from, args.X),
};

export const loginFinish: Op<"login.finish"> = {
  name: "login.finish",
  need: "anyone",
  summary:
    "the PIN exchange's second move: the device's confirmation; the hub's, and a host device token sealed under the shared key (a wrong PIN counts as one)",
  args: ["sid", "c", "name"],
  parse(a) {
    const { sid, c, name } = a;
    if (typeof sid !== "string" || !B64U_RE.test(sid)) return badArgs("sid must be the login's id");
    if (typeof c !== "string" || !B64U_RE.test(c)) return badArgs("c must be a confirmation, base64url");
    if (typeof name !== "string" || name.length > DEVICE_NAME_MAX) {
      return badArgs(`name must be text of up to ${DEVICE_NAME_MAX} characters`);
    }
    return ok({ sid, c, name });
  },
  run: (ctx, _c, args, req) => ctx.pinLogin.finish(req.client, req.from, args.sid, args.c, args.name),
};
