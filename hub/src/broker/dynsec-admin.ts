// A short admin session on a dynamic-security broker, for tools that are not the hub: `cng broker gun`, the
// simulator (its guns must be let in before they can ask to be paired) and tests.

import { randomBytes } from "node:crypto";
import type { GunId } from "@cng/protocol";
import { Bus } from "../bus/bus.js";
import { type Logger, silentLogger } from "../log.js";
import { DynsecControl, DynsecTable } from "./dynsec.js";

export interface AdminLogin {
  url: string;
  username: string;
  password: string;
  table: string;
  log?: Logger;
}

/** Runs `fn` with an admin session on the table; closes it afterwards. */
export async function withDynsec<T>(login: AdminLogin, fn: (t: DynsecTable) => Promise<T>): Promise<T> {
  const log = login.log ?? silentLogger();
  const bus = await Bus.connect({
    url: login.url,
    clientId: `cng-admin-${process.pid}-${randomBytes(3).toString("hex")}`,
    username: login.username,
    password: login.password,
    log,
  });
  const control = new DynsecControl(bus, log);
  try {
    await control.start();
    return await fn(new DynsecTable(control, login.table, log));
  } finally {
    control.close();
    await bus.close();
  }
}

/** Lets guns in to ask for pairing, each with the secret it holds (DynsecTable.admit). */
export async function admitGun(login: AdminLogin, guns: { gun: GunId; secret: string }[]): Promise<void> {
  await withDynsec(login, async (t) => {
    for (const g of guns) await t.admit(g.gun, g.secret);
  });
}
