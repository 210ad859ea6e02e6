// Mosquitto's dynamic-security plugin: the hub provisions guns on an external mosquitto by sending commands on
// `$CONTROL/dynamic-security/v1` (answers on `.../response`). One dynsec client per gun (username = gun id,
// password = its key), one role per gun with the same topic rights `cng acl` gives a gun, one viewer role per table
// in the anonymous group. Mosquitto 2.0's dynsec ACLs have no `%u`/`%c` patterns (measured on Debian's 2.0.11), so
// every gun has literal topics in its own role.

import { randomBytes } from "node:crypto";
import { GUN_OUT_LEAVES, type GunId, type GunOutLeaf, tableRoot } from "@cng/protocol";
import type { Logger } from "../log.js";

export const DYNSEC_TOPIC = "$CONTROL/dynamic-security/v1";
export const DYNSEC_RESPONSE = `${DYNSEC_TOPIC}/response`;
/** the group mosquitto puts anonymous clients in (written by `cng broker init`) */
export const ANON_GROUP = "cng-anonymous";
/** the admin role of the hubs (written by `cng broker init`) */
export const ADMIN_ROLE = "cng-admin";
export const DEFAULT_ADMIN = "cng-admin";
/** every table's public state and gun statuses, for the venue view (`cng venue`), in the anonymous group */
export const VENUE_ROLE = "cng-venue";
export const VENUE_READ = ["cng/v1/+/table/state", "cng/v1/+/gun/+/status"];

export function venueAcls(): Acl[] {
  return VENUE_READ.map((topic) => ({ acltype: "subscribePattern", topic, allow: true }));
}

/** Public topics (relative to the table root) anyone may read: as in broker/acl.ts. */
export const PUBLIC_READ = ["gun/+/status", "gun/+/cal", "gun/+/info", "gun/+/aim", "table/+"];
/** What a gun reads (its own). */
export const GUN_READ = ["cue", "cmd", "ota", "cal", "status"];
/** What a gun waiting to be paired may publish and read (its own): who it is, its will, its errors, its pulls. */
export const PENDING_WRITE: GunOutLeaf[] = ["info", "will", "err", "trig"];
export const PENDING_READ = ["cmd", "cue", "ota", "status"];

export type AclType =
  | "publishClientSend"
  | "publishClientReceive"
  | "subscribeLiteral"
  | "subscribePattern"
  | "unsubscribeLiteral"
  | "unsubscribePattern";
export interface Acl {
  acltype: AclType;
  topic: string;
  allow: boolean;
  priority?: number;
}

export function viewerRole(table: string): string {
  return `cng-${table}-viewer`;
}
export function gunRole(table: string, gun: GunId): string {
  return `cng-${table}-gun-${gun}`;
}
/** textname of a gun's dynsec client: which table it belongs to, and whether it is paired */
export function gunTextName(table: string, paired: boolean): string {
  return `cng ${table} ${paired ? "gun" : "pending"}`;
}

export function viewerAcls(table: string): Acl[] {
  const r = tableRoot(table);
  return PUBLIC_READ.map((t) => ({ acltype: "subscribePattern", topic: `${r}/${t}`, allow: true }));
}

/** A gun's rights: a paired gun the same as `cng acl` grants (its own topics), a pending one fewer. */
export function gunAcls(table: string, gun: GunId, paired: boolean): Acl[] {
  const g = `${tableRoot(table)}/gun/${gun}`;
  const write = paired ? GUN_OUT_LEAVES : PENDING_WRITE;
  const read = paired ? GUN_READ : PENDING_READ;
  return [
    ...write.map((l): Acl => ({ acltype: "publishClientSend", topic: `${g}/${l}`, allow: true })),
    ...read.map((l): Acl => ({ acltype: "subscribeLiteral", topic: `${g}/${l}`, allow: true })),
  ];
}

/** The admin role of the hubs: the plugin's control topic and every table. */
export function adminAcls(): Acl[] {
  const acls: Acl[] = [];
  for (const topic of [`${DYNSEC_TOPIC}/#`, "cng/#"]) {
    acls.push({ acltype: "publishClientSend", topic, allow: true });
    acls.push({ acltype: "publishClientReceive", topic, allow: true });
    acls.push({ acltype: "subscribePattern", topic, allow: true });
    acls.push({ acltype: "unsubscribePattern", topic, allow: true });
  }
  acls.push({ acltype: "subscribePattern", topic: "$SYS/#", allow: true });
  return acls;
}

export interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

export class DynsecError extends Error {
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`dynamic-security ${command}: ${reason}`);
  }
}

/** What the hub's MQTT client gives: Bus fits. */
export interface ControlLink {
  subscribe(filter: string, handler: (topic: string, payload: Buffer) => void): Promise<void>;
  publish(topic: string, payload: string | object, opts?: { qos?: 0 | 1 }): Promise<void>;
}

/** Errors that mean "already as wanted" when making sure something exists. */
const EXISTS = /already exists|already has|already in/i;
const MISSING = /not found|does not exist/i;

/**
 * Sends dynsec commands and matches their answers by correlation data. A bad or missing answer never throws out of
 * the bus's handler: it is logged, and the caller's promise rejects with why.
 */
export class DynsecControl {
  private readonly waiting = new Map<
    string,
    { resolve: (r: DynsecResponse) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private readonly tag = randomBytes(4).toString("hex");
  private n = 0;

  constructor(
    private readonly link: ControlLink,
    private readonly log: Logger,
    private readonly timeoutMs = 5000,
  ) {}

  async start(): Promise<void> {
    await this.link.subscribe(DYNSEC_RESPONSE, (_t, p) => this.onResponse(p));
  }

  private onResponse(payload: Buffer): void {
    let msg: unknown;
    try {
      msg = JSON.parse(payload.toString("utf8"));
    } catch {
      this.log.warn({ bytes: payload.length }, "dynamic-security: a response that is not JSON, ignored");
      return;
    }
    const list = (msg as { responses?: unknown })?.responses;
    if (!Array.isArray(list)) {
      this.log.warn("dynamic-security: a response without a responses list, ignored");
      return;
    }
    for (const r of list) {
      if (!r || typeof r !== "object") continue;
      const c = (r as DynsecResponse).correlationData;
      if (typeof c !== "string") continue; // another admin's (mosquitto_ctrl) answer
      const w = this.waiting.get(c);
      if (!w) continue;
      this.waiting.delete(c);
      clearTimeout(w.timer);
      const x = r as Record<string, unknown>;
      w.resolve({
        command: typeof x.command === "string" ? x.command : "?",
        ...(typeof x.error === "string" ? { error: x.error } : {}),
        ...(x.data !== undefined ? { data: x.data } : {}),
      });
    }
  }

  /** Sends one command; resolves with its answer (`error` set when mosquitto refused it). Rejects on a timeout. */
  async send(command: Record<string, unknown> & { command: string }): Promise<DynsecResponse> {
    const id = `cng-${this.tag}-${++this.n}`;
    const answer = new Promise<DynsecResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(
          new DynsecError(
            command.command,
            `no answer within ${this.timeoutMs} ms: is the dynamic-security plugin loaded, and does the hub's broker user have the ${ADMIN_ROLE} role?`,
          ),
        );
      }, this.timeoutMs);
      this.waiting.set(id, { resolve, reject, timer });
    });
    // the answer may fail while the publish is still under way: never an unhandled rejection
    answer.catch(() => {});
    try {
      await this.link.publish(DYNSEC_TOPIC, { commands: [{ ...command, correlationData: id }] }, { qos: 1 });
    } catch (e) {
      const w = this.waiting.get(id);
      if (w) clearTimeout(w.timer);
      this.waiting.delete(id);
      throw new DynsecError(command.command, `could not send: ${(e as Error).message}`);
    }
    return answer;
  }

  /** Sends a command that must succeed (or fail only as `tolerate` says): throws DynsecError otherwise. */
  async must(command: Record<string, unknown> & { command: string }, tolerate?: RegExp): Promise<DynsecResponse> {
    const r = await this.send(command);
    if (r.error && !tolerate?.test(r.error)) throw new DynsecError(command.command, r.error);
    return r;
  }

  close(): void {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new DynsecError(id, "the hub is closing"));
    }
    this.waiting.clear();
  }
}

/** Makes sure a role exists with (at least) these ACLs. */
export async function ensureRole(c: DynsecControl, rolename: string, acls: Acl[], textname?: string): Promise<void> {
  const made = await c.must({ command: "createRole", rolename, acls, ...(textname ? { textname } : {}) }, EXISTS);
  if (!made.error) return;
  for (const acl of acls) await c.must({ command: "addRoleACL", rolename, ...acl }, EXISTS);
}

/** The client a gun id names on the broker, if any: its textname and roles. */
export async function getClient(
  c: DynsecControl,
  username: string,
): Promise<{ textname?: string; roles: string[] } | null> {
  const r = await c.send({ command: "getClient", username });
  if (r.error) {
    if (MISSING.test(r.error)) return null;
    throw new DynsecError("getClient", r.error);
  }
  const client = (r.data as { client?: { textname?: unknown; roles?: unknown } } | undefined)?.client;
  if (!client || typeof client !== "object") throw new DynsecError("getClient", "an answer without the client");
  const roles = Array.isArray(client.roles)
    ? client.roles.map((x) => (x as { rolename?: unknown })?.rolename).filter((x): x is string => typeof x === "string")
    : [];
  return { ...(typeof client.textname === "string" ? { textname: client.textname } : {}), roles };
}

/** The part of the hub that provisions one table's guns through dynsec. */
export class DynsecTable {
  constructor(
    readonly control: DynsecControl,
    readonly table: string,
    private readonly log: Logger,
  ) {}

  /** At start: the table's viewer role, in the anonymous group (anonymous clients read the public topics). */
  async start(): Promise<void> {
    await ensureRole(this.control, viewerRole(this.table), viewerAcls(this.table), `cng ${this.table} viewers`);
    await ensureRole(this.control, VENUE_ROLE, venueAcls(), "cng venue view: every table's public state");
    for (const rolename of [viewerRole(this.table), VENUE_ROLE]) await this.anonymous(rolename);
  }

  private async anonymous(rolename: string): Promise<void> {
    const g = await this.control.send({ command: "getGroup", groupname: ANON_GROUP });
    const roles = (g.data as { group?: { roles?: { rolename?: unknown }[] } } | undefined)?.group?.roles;
    // (mosquitto 2.0.11 answers "Internal error" to adding a role the group already has)
    const r =
      g.error || !Array.isArray(roles)
        ? { error: g.error ?? "no group in the answer" }
        : roles.some((x) => x?.rolename === rolename)
          ? {}
          : await this.control.send({ command: "addGroupRole", groupname: ANON_GROUP, rolename });
    if (r.error) {
      this.log.warn(
        { err: r.error, group: ANON_GROUP, role: rolename },
        `dynamic-security: anonymous clients do not get ${rolename} (${r.error}); was the broker set up by cng broker init?`,
      );
    }
  }

  /** Whose gun id this is on the broker: null (free), this table's, or another table's (a clash). */
  private async owner(gun: GunId): Promise<{ mine: boolean; textname?: string; roles: string[] } | null> {
    const c = await getClient(this.control, gun);
    if (!c) return null;
    const mine = c.textname?.startsWith(`cng ${this.table} `) === true || c.roles.includes(gunRole(this.table, gun));
    return { mine, roles: c.roles, ...(c.textname ? { textname: c.textname } : {}) };
  }

  /**
   * Lets an unknown gun in to ask for pairing: a client with the secret it was flashed with, and only a pending gun's
   * rights (`cng broker gun`, the simulator). Refused when the id is another table's gun.
   */
  async admit(gun: GunId, secret: string): Promise<void> {
    const o = await this.owner(gun);
    if (o && !o.mine)
      throw new DynsecError("createClient", `gun id ${gun} is taken on this broker (${o.textname ?? "not a cng gun"})`);
    const role = gunRole(this.table, gun);
    if (o) {
      // a forgotten or re-flashed gun: back to pending, with the secret it holds now
      await this.control.must({ command: "deleteClient", username: gun }, MISSING);
    }
    await this.control.must({ command: "deleteRole", rolename: role }, MISSING);
    await ensureRole(this.control, role, gunAcls(this.table, gun, false), `cng ${this.table} gun ${gun}`);
    await this.control.must({
      command: "createClient",
      username: gun,
      password: secret,
      textname: gunTextName(this.table, false),
      roles: [{ rolename: role }],
    });
  }

  /** Before pair.accept sends a key: the broker answers, and the gun id is not another table's. */
  async check(gun: GunId): Promise<void> {
    const o = await this.owner(gun);
    if (o && !o.mine)
      throw new DynsecError("createClient", `gun id ${gun} is taken on this broker (${o.textname ?? "not a cng gun"})`);
  }

  /**
   * At pair.accept, once the gun was sent its key: the gun's client takes the key as its password and a paired gun's
   * rights. mosquitto drops the client's connection when its password changes; the gun comes back with the key.
   */
  async pair(gun: GunId, key: string): Promise<void> {
    const o = await this.owner(gun);
    if (o && !o.mine)
      throw new DynsecError("createClient", `gun id ${gun} is taken on this broker (${o.textname ?? "not a cng gun"})`);
    const role = gunRole(this.table, gun);
    await ensureRole(this.control, role, gunAcls(this.table, gun, true), `cng ${this.table} gun ${gun}`);
    if (!o) {
      await this.control.must({
        command: "createClient",
        username: gun,
        password: key,
        textname: gunTextName(this.table, true),
        roles: [{ rolename: role }],
      });
      return;
    }
    await this.control.must({ command: "modifyClient", username: gun, textname: gunTextName(this.table, true) });
    // (mosquitto 2.0.11 answers "Internal error" to a role the client already has)
    if (!o.roles.includes(role)) await this.control.must({ command: "addClientRole", username: gun, rolename: role });
    await this.control.must({ command: "setClientPassword", username: gun, password: key });
  }

  /** gun.forget / pair.reject: the gun's client and role go; mosquitto drops its connection. */
  async forget(gun: GunId): Promise<void> {
    const o = await this.owner(gun);
    if (o && !o.mine) {
      this.log.warn({ gun, owner: o.textname }, "dynamic-security: not deleting another table's client");
      return;
    }
    if (o) await this.control.must({ command: "deleteClient", username: gun }, MISSING);
    await this.control.must({ command: "deleteRole", rolename: gunRole(this.table, gun) }, MISSING);
  }
}

/**
 * GunService's provisioner on a dynsec broker. mosquitto drops a client whose password changes, so the key must
 * reach the gun first: after sending it, wait until the gun is gone (it reconnects with the key a second later; its
 * will tells the hub it left) or `waitMs`, then change the password.
 */
export class DynsecProvisioner {
  private readonly gone = new Map<string, () => void>();
  private readonly waits = new Map<string, Promise<void>>();

  constructor(
    readonly dynsec: DynsecTable,
    private readonly waitMs = 800,
  ) {}

  /** Wire to GunService.onPresence. */
  presence(gun: GunId, on: boolean): void {
    if (!on) this.gone.get(gun)?.();
  }

  /** Before the key goes: the broker answers, the id is this table's; from now on the gun's leaving is watched. */
  async check(gun: GunId): Promise<void> {
    await this.dynsec.check(gun);
    const gone = this.gone;
    this.waits.set(
      gun,
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.waitMs);
        function done() {
          clearTimeout(timer);
          gone.delete(gun);
          resolve();
        }
        gone.set(gun, done);
      }),
    );
  }

  async paired(gun: GunId, key: string): Promise<void> {
    await this.waits.get(gun);
    this.waits.delete(gun);
    await this.dynsec.pair(gun, key);
  }

  forget(gun: GunId): Promise<void> {
    return this.dynsec.forget(gun);
  }
}
