// The gun: config → IMU, trigger, feedback, WiFi + MQTT or the USB serial link; aim stream, trigger events, cues, commands.
// Starts itself when loaded (from .bootcde at boot). Nothing from the network may stop it:
// bad input is reported on `err` and ignored.
import {
  type CommandMsg,
  type CueMsg,
  decIn,
  encAim,
  encErr,
  encInfo,
  encSync,
  encTrig,
  encWill,
  type GunLeaf,
  gunTopic,
  type ImuKind,
  type TriggerKind,
} from "@cng/protocol";
import { bno085 } from "./bno085";
import { now, onTime, toGun } from "./clock";
import { type Cfg, keepCfg, loadCfg } from "./config";
import { click, play, quiet } from "./feedback";
import { find } from "./find";
import { mcmd } from "./mount";
import { mpu6050 } from "./mpu6050";
import { mq, mqConnect, mqInit, mqPass, pub, sub } from "./mqtt";
import type { Imu, Orient } from "./orient";
import { boot, ota, otaOk } from "./ota";
import { puck } from "./puck";
import { slKey, slPub, slStart } from "./serial";
import { trigger } from "./trigger";
import { rssi, wifi } from "./wifi";

var o: Orient = { y: 0, p: 0, r: 0, s: 0, t: 0 };

function run(c: Cfg) {
  var hz = c.hz;
  var aimT = 0;
  var seq = 0;
  var ticks = 0;
  function tp(l: GunLeaf) {
    return gunTopic(c.table, c.id, l);
  }
  var tAim = tp("aim");
  var tCue = tp("cue");
  var tCmd = tp("cmd");
  var tOta = HAS_OTA ? tp("ota") : "";
  var upd: (p: string) => void;
  // the link: USB serial lines (boards built with it) or MQTT over WiFi; same payloads either way
  var ser = LINK_SERIAL && (!LINK_WIFI || c.ser);
  var send: (t: string, m: string, q: number, r: boolean) => void = ser ? slPub : pub;
  if (!ser)
    mqInit({
      host: c.hub.host,
      port: c.hub.port,
      id: c.table + "-" + c.id,
      user: c.id,
      pass: c.secret,
      wt: tp("will"),
      wm: encWill(),
      ka: c.ka,
    });
  // the hub moved: ask the network for it (find.ts)
  if (HAS_FIND && !ser) find(c);
  var imu: Imu =
    IMU_KIND === "bno085" ? bno085() : IMU_KIND === "lsm6ds3" ? puck(BOARD.imu.hz || 52) : mpu6050(BOARD.imu.hz || 50);

  function err(e: string, m: string) {
    console.log("CNG " + e + ": " + m);
    send(tp("err"), encErr(e, m), 1, false);
  }
  function bat(): number | undefined {
    var b = BOARD.bat;
    // a Puck.js measures its own coin cell
    if (CHIP === "NRF52") return E.getBattery();
    if (!b) return undefined;
    var v = Math.round(((analogRead(b.pin) * b.mul - 3.3) / 0.9) * 100);
    return Math.max(0, Math.min(100, v));
  }
  function info() {
    var m = process.memory();
    send(
      tp("info"),
      encInfo(
        FW,
        BOARD.name,
        IMU_KIND as ImuKind,
        bat(),
        m.free,
        Math.floor(now() / 1000),
        hz,
        HAS_RSSI && !ser ? rssi() : undefined,
      ),
      1,
      true,
    );
  }
  function sync() {
    send(tp("sync"), encSync(now()), 0, false);
  }
  function aim() {
    if (!mq.up) return;
    imu.get(o);
    send(tAim, encAim(o.t, o.y, o.p, o.r, !!o.s), 0, false);
  }
  function rate(h: number) {
    hz = h;
    if (aimT) clearInterval(aimT);
    aimT = setInterval(aim, 1000 / hz);
  }
  function cue(m: CueMsg) {
    if (m.c === "off") return quiet();
    play(m.l, m.b, m.rp || 1, m.at === undefined ? now() : toGun(m.at));
  }
  function cmd(m: CommandMsg) {
    var j: any;
    if (m.c === "rate") {
      if (typeof m.hz !== "number" || !(m.hz >= 1)) return err("cmd", "rate hz");
      rate(Math.min(50, m.hz));
      info();
    } else if (m.c === "time") {
      if (typeof m.g !== "number" || typeof m.h !== "number" || !onTime(m.g, m.h)) err("cmd", "time");
    } else if (m.c === "info") info();
    else if (m.c === "still") imu.still();
    else if (m.c === "reboot") E.reboot();
    else if (m.c === "key") {
      // pairing accepted: the hub's key replaces the flashed secret, kept across reboots
      if (typeof m.k !== "string" || m.k.length < 16) return err("cmd", "key");
      keepCfg("secret", m.k);
      if (ser) slKey(m.k);
      else mqPass(m.k);
    } else if (HAS_MOUNT && (m.c === "grav" || m.c === "mount")) {
      // the IMU mounting (mount.ts): gravity in the chip's frame, or a new mounting; answered on `imu`
      j = mcmd(m, function (s: string) {
        send(tp("imu"), s, 1, false);
      });
      if (j) err("cmd", j);
    } else err("cmd", "unknown " + (m as any).c);
  }

  mq.onup = function () {
    var rb: string | undefined;
    if (!ser) sub(HAS_OTA ? [tCue, tCmd, tOta] : [tCue, tCmd]);
    if (HAS_OTA) {
      rb = otaOk();
      if (rb) err("ota", "back to the previous firmware: " + rb + " did not come online");
    }
    info();
    sync();
    ticks = 0;
  };
  mq.onmsg = function (t: string, p: string) {
    var leaf: "cue" | "cmd" = t === tCue ? "cue" : "cmd";
    var m: CueMsg | CommandMsg | string;
    if (HAS_OTA && t === tOta) {
      try {
        upd(p);
      } catch (e) {
        err("ota", "" + e);
      }
      return;
    }
    if (t !== tCue && t !== tCmd) return;
    try {
      m = decIn(leaf, p);
      if (typeof m === "string") err(leaf, m);
      else if (leaf === "cue") cue(m as CueMsg);
      else cmd(m as CommandMsg);
    } catch (e) {
      err(leaf, "" + e);
    }
  };
  if (HAS_OTA)
    upd = ota(
      function (m: string) {
        send(tp("otas"), m, 1, false);
      },
      err,
      bat,
    );
  trigger(function (k: TriggerKind, t: number, d: number) {
    if (k === "p" && c.click) click();
    send(tp("trig"), encTrig(++seq, k, t, d), 1, false);
  });
  var ie = imu.start();
  // the clock probes: five quick ones after connecting, then one every 30 s; info every minute
  setInterval(function () {
    if (!mq.up) return;
    ticks++;
    if (ticks < 6 || ticks % 30 === 0) sync();
    if (ticks % 60 === 0) info();
  }, 1000);
  rate(hz);
  if (ser) slStart(c.id, c.secret, tCue.substr(0, tCue.length - 3));
  else
    wifi(c.wifi, function () {
      mqConnect();
    });
  // connected to nothing yet; the IMU error goes out once the hub is there
  var onup = mq.onup;
  if (ie) {
    mq.onup = function () {
      onup();
      err("imu", ie!);
    };
  }
  play([0x00ff00, 300, 0, 0], [1800, 80, 0, 40, 2400, 80], 1, now());
}

function start() {
  var c = loadCfg();
  if (typeof c === "string") {
    // no config: say so on the console, blink red, one low beep; nothing else runs
    console.log("CNG " + c);
    play([0xff0000, 200, 0, 800], undefined, 1e9, now());
    play(undefined, [300, 400], 1, now());
    return;
  }
  console.log(
    "CNG gun " +
      c.id +
      " fw " +
      FW +
      " on " +
      BOARD.name +
      (LINK_SERIAL && c.ser ? (CHIP === "NRF52" ? " on Bluetooth" : " on USB serial") : ""),
  );
  run(c);
}

// an updated firmware (ota.ts) runs instead of this one when Storage names one
if (!(HAS_OTA && boot())) start();
