// Guns on the bus: presence and info in, retained status and commands out, pairing.

import type { GunId } from "@cng/protocol";
import {
  type CommandMsg,
  decodeGunError,
  decodeInfo,
  decodeWill,
  gunTopic,
  type InfoMsg,
  ok,
  type PresenceReason,
  parseTopic,
  RESERVED_USERNAMES,
  type Result,
  refuse,
  SEAT_USER_RE,
  withCharge,
} from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import { type Logger, OncePerKey } from "../log.js";
import type { Seat } from "../rules/index.js";
import type { SecretStore } from "../store/secrets.js";
import type { GunRecord, GunRegistry } from "./registry.js";
import { payloadVersion, versionWarning } from "./warnings.js";

export type BrokerMode = "embedded" | "external";

/** Gun logins on an external broker the hub manages (broker/dynsec.ts). */
export interface GunProvisioner {
  /** before a key is sent: the broker answers and the gun id may be this table's */
  check(gun: GunId): Promise<void>;
  /** after the key was sent: the broker's login for the gun takes it */
  paired(gun: GunId, key: string): Promise<void>;
  forget(gun: GunId): Promise<void>;
}

/** What the embedded broker does with a gun's connections. */
export interface GunSessions {
  /** closes them all (forgotten, rejected) */
  kick(gun: GunId): void;
  /** paired: the device that waited keeps its session to take the key; any other waiting as the gun is closed */
  paired(gun: GunId): void;
  /** a connection of the gun is subscribed to its commands (false when the broker cannot tell) */
  hearsCommands(gun: GunId): boolean;
}

/** Commands the hub sends, minus the sequence number it adds. */
type CommandBody = CommandMsg extends infer C ? (C extends CommandMsg ? Omit<C, "n" | "v"> : never) : never;

/** A gun paired, moved or dropped, and its seat. */
export type PairResult = Result<{ gun: GunId; seat: Seat | null }>;

export class GunService {
  private seq = Math.floor(Date.now() / 1000) % 2 ** 31;
  private readonly refusals: OncePerKey;
  private readonly presenceListeners: ((gun: GunId, on: boolean) => void)[] = [];
  private readonly infoListeners: ((gun: GunId, info: InfoMsg) => void)[] = [];
  /**
   * Keys sent to guns still on their pairing session. A gun is online from its connect, before its subscription to
   * its commands: a key sent in between is lost, and the gun would wait forever. Its next info (which the firmware
   * sends once subscribed) brings the key again; a new session (the gun took the key) ends the wait.
   */
  private readonly keyFor = new Map<GunId, string>();

  /** the last aim rate each gun was told, by whichever part of the hub told it */
  private readonly rates = new Map<GunId, number>();

  constructor(
    private readonly bus: Bus,
    private readonly table: string,
    readonly registry: GunRegistry,
    private readonly secrets: SecretStore,
    private readonly log: Logger,
    /** embedded: the hub checks every login (secrets.checkGun); external: the broker does */
    readonly mode: BrokerMode,
    /** the embedded broker's sessions of a gun (none with an external one) */
    private readonly sessions: GunSessions,
    private readonly clock: () => number = Date.now,
    /** an external broker the hub provisions guns on (mosquitto's dynamic-security plugin: broker/dynsec.ts) */
    private readonly provision?: GunProvisioner,
  ) {
    this.refusals = new OncePerKey(log);
  }

  async start(): Promise<void> {
    const t = (leaf: "info" | "will" | "err") => gunTopic(this.table, "+", leaf);
    await this.bus.subscribe(t("info"), (topic, p) => this.onInfo(topic, p));
    await this.bus.subscribe(t("will"), (topic, p) => this.onWill(topic, p));
    await this.bus.subscribe(t("err"), (topic, p) => this.onGunError(topic, p));
    for (const g of this.registry.all()) await this.publishStatus(g);
  }

  /** Tells `fn` whenever a gun comes or goes (paired or not). */
  onPresence(fn: (gun: GunId, on: boolean) => void): void {
    this.presenceListeners.push(fn);
  }

  /** The aim rate this gun was last told (none since the hub started). */
  toldRate(gun: GunId): number | undefined {
    return this.rates.get(gun);
  }

  /** Tells `fn` each info a known gun sends. */
  onGunInfo(fn: (gun: GunId, info: InfoMsg) => void): void {
    this.infoListeners.push(fn);
  }

  private told(gun: GunId, on: boolean): void {
    for (const fn of this.presenceListeners) {
      try {
        fn(gun, on);
      } catch (e) {
        this.log.error({ err: e, gun }, "presence listener failed");
      }
    }
  }

  /** Embedded broker: a gun's connection is up. */
  connected(gun: GunId, pending: boolean): void {
    this.keyFor.delete(gun);
    const g = this.registry.online(gun, "connect", this.clock());
    if (pending) this.log.warn({ gun }, "pairing request: an unknown gun connected; accept it with pair.accept");
    void this.publishStatus(g);
    this.told(gun, true);
  }

  /** Embedded broker: a second device tried to wait for pairing with this gun's id, and was refused. */
  twinRefused(gun: GunId): void {
    const g = this.registry.twin(gun, this.clock());
    if (g) void this.publishStatus(g);
  }

  /** Embedded broker: a gun's last connection is gone. */
  disconnected(gun: GunId, why: "disconnect" | "timeout"): void {
    this.wentAway(gun, why);
  }

  private wentAway(gun: GunId, why: PresenceReason): void {
    this.keyFor.delete(gun);
    const g = this.registry.offline(gun, why, this.clock());
    if (g) void this.publishStatus(g);
    else void this.bus.clearRetained(gunTopic(this.table, gun, "status")).catch(() => {});
    this.told(gun, false);
  }

  private gunOf(topic: string): GunId | null {
    const t = parseTopic(topic);
    if (t?.kind !== "gun" || t.table !== this.table) return null;
    // Names of other roles are never guns (an external broker's ACL patterns would let them post).
    return RESERVED_USERNAMES.includes(t.gun) || SEAT_USER_RE.test(t.gun) ? null : t.gun;
  }

  private onInfo(topic: string, payload: Buffer): void {
    const gun = this.gunOf(topic);
    if (!gun || payload.length === 0) return;
    const d = decodeInfo(payload);
    if (!d.ok) {
      this.refusals.warn(`info:${gun}:${d.error.code}`, { gun, err: d.error }, "refused gun info");
      if (d.error.code === "version") {
        const g =
          this.registry.get(gun) ??
          (this.mode === "external" ? this.registry.online(gun, "connect", this.clock()) : undefined);
        if (g) {
          this.registry.setVersionWarning(gun, versionWarning(payloadVersion(payload)));
          void this.publishStatus(g);
        }
      }
      return;
    }
    let g = this.registry.get(gun);
    // External broker: no connect events, so a gun's info is how it comes online.
    if (this.mode === "external" && !g?.on) {
      if (!g && !this.registry.mayRequestPairing(gun)) return;
      g = this.registry.online(gun, "connect", this.clock());
      if (!g.paired) this.log.warn({ gun }, "pairing request: an unknown gun spoke; accept it with pair.accept");
      this.told(gun, true);
    }
    if (!g) return;
    const key = this.keyFor.get(gun);
    if (key !== undefined) {
      this.keyFor.delete(gun);
      void this.command(gun, this.keyCommand(key)).catch(() => {});
    }
    // a LiPo gun says its volts: its charge level comes from the cell's curve (shared/protocol/src/battery.ts)
    const info = withCharge(d.value);
    this.registry.setInfo(gun, info);
    for (const fn of this.infoListeners) {
      try {
        fn(gun, info);
      } catch (e) {
        this.log.error({ err: e, gun }, "info listener failed");
      }
    }
    const warn = this.registry.status(g).warn?.filter((w) => !w.startsWith("not paired"));
    if (warn?.length) this.refusals.warn(`warn:${gun}:${warn.join()}`, { gun, warn }, "gun needs attention");
    void this.publishStatus(g);
  }

  private onWill(topic: string, payload: Buffer): void {
    const gun = this.gunOf(topic);
    if (!gun || payload.length === 0) return;
    const d = decodeWill(payload);
    if (!d.ok) {
      this.refusals.warn(`will:${gun}:${d.error.code}`, { gun, err: d.error }, "refused gun will");
      return;
    }
    // Embedded: the broker's disconnect event already said so, with a better reason.
    if (this.mode === "external") this.wentAway(gun, "will");
  }

  private onGunError(topic: string, payload: Buffer): void {
    const gun = this.gunOf(topic);
    if (!gun) return;
    const d = decodeGunError(payload);
    if (!d.ok) {
      this.refusals.warn(`err:${gun}:${d.error.code}`, { gun, err: d.error }, "refused gun error report");
      return;
    }
    this.refusals.warn(`gunerr:${gun}:${d.value.e}`, { gun, e: d.value.e, m: d.value.m }, "gun reported an error");
  }

  async publishStatus(g: GunRecord): Promise<void> {
    try {
      await this.bus.publish(gunTopic(this.table, g.id, "status"), this.registry.status(g), { retain: true });
    } catch (e) {
      this.log.warn({ gun: g.id, err: (e as Error).message }, "could not publish gun status");
    }
  }

  /**
   * The pairing key, and whether the broker takes a proof of it at CONNECT (the embedded one: broker/gun-proof.ts), so
   * a gun that can make one never sends the key again.
   */
  private keyCommand(k: string): CommandBody {
    return this.mode === "embedded" ? { c: "key", k, p: 1 } : { c: "key", k };
  }

  async command(gun: GunId, body: CommandBody): Promise<void> {
    if (body.c === "rate") this.rates.set(gun, body.hz);
    this.seq = (this.seq + 1) % 4294967296;
    const msg = { v: 1, n: this.seq, ...body };
    await this.bus.publish(gunTopic(this.table, gun, "cmd"), msg, { qos: 1 });
  }

  /**
   * Accepts a pairing request: a new secret, stored (hashed) and sent to the gun as `key`. With an external
   * broker the broker checks passwords: one the hub provisions (mosquitto's dynamic security, `--dynsec`) is given
   * the key as the gun's password; with a password file the broker cannot learn a key from the hub (a key would
   * lock the gun out), so the gun keeps its flashed secret.
   */
  async pair(gun: GunId, seat: Seat | null): Promise<PairResult> {
    const g = this.registry.get(gun);
    if (!g) return refuse("unknown-gun", `no gun ${gun} is asking to be paired`);
    if (g.paired) return refuse("already-paired", `${gun} is already paired; forget it first`);
    if (!g.on) return refuse("offline", `${gun} is not connected`);
    if (this.provision) {
      const why = await this.provision.check(gun).then(
        () => null,
        (e: Error) => e.message,
      );
      if (why) return refuse("broker", why);
    }
    const secret = this.secrets.pairGun(gun, seat, this.clock());
    this.registry.paired(gun, seat);
    this.sessions.paired(gun);
    if (this.mode === "embedded" || this.provision) {
      // a gun not yet subscribed to its commands would lose the key: its next info brings it again. One that hears
      // them gets it once (its info answering a rate command meanwhile must not send the key over the air again)
      if (!this.sessions.hearsCommands(gun)) this.keyFor.set(gun, secret);
      await this.command(gun, this.keyCommand(secret));
    }
    if (this.provision) {
      const why = await this.provision.paired(gun, secret).then(
        () => null,
        (e: Error) => e.message,
      );
      if (why) {
        this.log.error({ gun, err: why }, "the broker did not take the gun's key: forget it and pair it again");
        return refuse("broker", why);
      }
    }
    this.log.info({ gun, seat }, "gun paired");
    await this.publishStatus(g);
    return ok({ gun, seat });
  }

  /** Moves a paired gun to another seat (null: none). */
  async setSeat(gun: GunId, seat: Seat | null): Promise<PairResult> {
    const g = this.registry.get(gun);
    if (!g?.paired) return refuse("unknown-gun", `${gun} is not paired`);
    this.secrets.setGunSeat(gun, seat);
    this.registry.paired(gun, seat);
    await this.publishStatus(g);
    for (const fn of this.presenceListeners) fn(gun, g.on);
    return ok({ gun, seat });
  }

  /** Drops a pairing request and closes the gun's connection. */
  async reject(gun: GunId): Promise<PairResult> {
    const g = this.registry.get(gun);
    if (!g || g.paired) return refuse("unknown-gun", `no gun ${gun} is asking to be paired`);
    this.registry.forget(gun);
    await this.bus.clearRetained(gunTopic(this.table, gun, "status"));
    this.sessions.kick(gun);
    await this.unprovision(gun);
    this.log.info({ gun }, "pairing request rejected");
    return ok({ gun, seat: null });
  }

  /** External broker with provisioning: the gun's broker login goes too (and the broker drops its connection). */
  private async unprovision(gun: GunId): Promise<void> {
    // its retained info would bring it back as a pairing request at the next start
    if (this.provision) await this.bus.clearRetained(gunTopic(this.table, gun, "info")).catch(() => {});
    try {
      await this.provision?.forget(gun);
    } catch (e) {
      this.log.error({ gun, err: (e as Error).message }, "the broker kept the gun's login: delete it by hand");
    }
  }

  /** Deletes a paired gun's credentials; it must pair again. */
  async forget(gun: GunId): Promise<PairResult> {
    const g = this.registry.get(gun);
    if (!g?.paired) return refuse("unknown-gun", `${gun} is not paired`);
    this.secrets.forgetGun(gun);
    this.keyFor.delete(gun);
    this.registry.forget(gun);
    await this.bus.clearRetained(gunTopic(this.table, gun, "status"));
    this.sessions.kick(gun);
    await this.unprovision(gun);
    this.log.info({ gun }, "gun forgotten");
    return ok({ gun, seat: null });
  }
}
