// The gun: config → IMU, trigger, feedback, WiFi + MQTT or the USB serial link; aim stream, trigger events, cues, commands.
// Starts itself when loaded (from .bootcde at boot). Nothing from the network may stop it:
// bad input is reported on `err` and ignored.
import {
  BAT_CAL_K,
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
import { clk, now, onTime, toGun } from "./clock";
import { type Cfg, loadCfg } from "./config";
import { click, play, quiet } from "./feedback";
import { find } from "./find";
import { imu as startImu } from "./imu";
import { keepCfg } from "./keep";
import { mac, sha } from "./mac";
import { mcmd } from "./mount";
import { mq, mqConnect, mqInit, mqPass, mqProof, pub } from "./mqtt";
import type { Imu, Orient } from "./orient";
import { boot, ota, otaOk } from "./ota";
import { slKey, slPub, slStart } from "./serial";
import { trigger } from "./trigger";
import { rssi, wifi } from "./wifi";

var orient: Orient = { y: 0, p: 0, r: 0, s: 0, t: 0 };

function run(c: Cfg) {
  var hz = c.hz;
  var aimTimer = 0;
  var seq = 0;
  var ticks = 0;
  /** timed cues that came after their start: dropped, not played late */
  var late = 0;
  /** `cng/v1/<table>/gun/<id>/`: each topic is it and a leaf */
  var root = gunTopic(c.table, c.id, "" as GunLeaf);
  function topic(l: GunLeaf) {
    return root + l;
  }
  var aimTopic = topic("aim");
  var cueTopic = topic("cue");
  var cmdTopic = topic("cmd");
  var otaTopic = HAS_OTA ? topic("ota") : "";
  var update: (p: string) => void;
  // the link: USB serial lines (boards built with it) or MQTT over WiFi; same payloads either way
  var serial = LINK_SERIAL && (!LINK_WIFI || c.ser);
  var send: (t: string, m: string, q: number, r: boolean) => void = serial ? slPub : pub;
  /** logins since boot: a proof's second counter */
  var ln = 0;
  // a paired gun whose broker takes a proof never sends its key again: "g1.<boot>.<n>.<HMAC-SHA256 by the key's hash
  // over the gun id, the client id, boot and n>" (the hub: hub/src/broker/gun-proof.ts), each newer than the last
  if (HAS_FIND && c.pf && c.paired) {
    c.bt = (c.bt || 0) + 1;
    keepCfg("bt", c.bt);
  }
  function login(): string {
    var m: string;
    if (!(c.pf && c.paired)) return c.secret;
    m = c.bt + "." + ++ln;
    return "g1." + m + "." + mac(sha(c.secret), c.id + "|" + c.table + "-" + c.id + "|" + m);
  }
  if (!serial)
    mqInit({
      host: c.hub.host,
      port: c.hub.port,
      id: c.table + "-" + c.id,
      user: c.id,
      pass: c.secret,
      wt: topic("will"),
      wm: encWill(),
      ka: c.ka,
      s: HAS_OTA ? [cueTopic, cmdTopic, otaTopic] : [cueTopic, cmdTopic],
    });
  if (HAS_FIND) mqProof(login);
  // the hub moved: ask the network for it (find.ts)
  if (HAS_FIND && !serial) find(c);
  var imu: Imu = startImu(BOARD.imu.hz || IMU_HZ);

  function err(e: string, m: string) {
    console.log("CNG " + e + ": " + m);
    send(topic("err"), encErr(e, m), 1, false);
  }
  /** the LiPo's volts: the pin through the chip's ADC transfer and the divider (baked in), times this gun's calibration */
  function volts(): number | undefined {
    var r: number;
    var i: number;
    if (!BAT || !c.bat) return undefined;
    r = analogRead(BAT_PIN);
    // an ESP32's ADC is noisy: the mean of a few readings
    if (ADC_N > 1) {
      for (i = 1; i < ADC_N; i++) r += analogRead(BAT_PIN);
      r /= ADC_N;
    }
    return Math.round((BAT_B ? r * BAT_A + BAT_B : r * BAT_A) * c.bat * 100) / 100;
  }
  // process.memory() collects garbage first; kept on every info, the one that answers `rate` too: on the ESP8266
  // (1,600 variables) a gun that skipped it at the switch to 50 Hz stopped taking commands on the real interpreter
  function info() {
    send(
      topic("info"),
      encInfo(
        FW,
        BOARD.name,
        IMU_KIND as ImuKind,
        // a Puck.js gauges its own coin cell, in percent; a LiPo gun says its volts (the hub knows the curve)
        CHIP === "NRF52" ? E.getBattery() : undefined,
        process.memory().free,
        Math.floor(now() / 1000),
        hz,
        HAS_RSSI && !serial ? rssi() : undefined,
        volts(),
        (BAT && c.bat) || undefined,
        late || undefined,
      ),
      1,
      true,
    );
  }
  function sync() {
    send(topic("sync"), encSync(now(), clk.h, clk.a), 0, false);
  }
  function aim() {
    if (!mq.up) return;
    imu.get(orient);
    send(aimTopic, encAim(orient.t, orient.y, orient.p, orient.r, !!orient.s), 0, false);
  }
  function rate(h: number) {
    hz = h;
    if (aimTimer) clearInterval(aimTimer);
    aimTimer = setInterval(aim, 1000 / hz);
  }
  function cue(m: CueMsg) {
    var n = now();
    var t = toGun(m.at, n);
    if (m.c === "off") return quiet();
    // played late it would be off the other guns' beat: better silent
    if (t < n) late++;
    else play(m.l, m.b, m.rp || 1, t);
  }
  function cmd(m: CommandMsg) {
    var why: any;
    if (m.c === "rate") {
      if (typeof m.hz !== "number" || !(m.hz >= 1)) return err("cmd", "rate hz");
      rate(Math.min(50, m.hz));
      info();
    } else if (m.c === "time") {
      if (typeof m.h !== "number") err("cmd", "time");
      else onTime(m.h, m.o);
    } else if (m.c === "info") info();
    else if (m.c === "still") imu.still();
    else if (m.c === "reboot") E.reboot();
    else if (m.c === "key") {
      // pairing accepted: the hub's key replaces the flashed secret, kept across reboots
      if (typeof m.k !== "string" || m.k.length < 16) return err("cmd", "key");
      keepCfg("secret", m.k);
      // a key its hub holds the hash of: from now on that hub can prove its answers and updates (find.ts, ota.ts)
      if (HAS_FIND || HAS_OTA) c.secret = m.k;
      // (and on the serial link: from now on its hello names no key, and a link must prove itself: serial.ts)
      if (HAS_FIND || LINK_SERIAL) {
        c.paired = 1;
        keepCfg("paired", 1);
      }
      // its broker takes a proof from now on (the embedded one): the key crossed the air this once
      if (HAS_FIND && m.p === 1) {
        c.pf = 1;
        c.bt = 1;
        keepCfg("pf", 1);
        keepCfg("bt", 1);
      }
      if (serial) slKey(m.k);
      else mqPass(m.k);
    } else if (HAS_BATCAL && m.c === "bat") {
      // the battery reading's new calibration (the hub's, from the true volts: a multimeter's, or a full cell's)
      if (!(m.k >= BAT_CAL_K[0] && m.k <= BAT_CAL_K[1]) || !volts()) return err("cmd", "bat");
      c.bat = m.k;
      keepCfg("bat", m.k);
      info();
    } else if (HAS_MOUNT && (m.c === "grav" || m.c === "mount")) {
      // the IMU mounting (mount.ts): gravity in the chip's frame, or a new mounting; answered on `imu`
      why = mcmd(m, function (s: string) {
        send(topic("imu"), s, 1, false);
      });
      if (why) err("cmd", why);
    } else err("cmd", "unknown " + (m as any).c);
  }

  mq.onup = function () {
    var rolledBack: string | undefined;
    if (HAS_OTA) {
      rolledBack = otaOk();
      if (rolledBack) err("ota", "back to the previous firmware: " + rolledBack + " did not come online");
    }
    info();
    sync();
    ticks = 0;
  };
  mq.onmsg = function (t: string, p: string) {
    var leaf: "cue" | "cmd" = t === cueTopic ? "cue" : "cmd";
    var m: CueMsg | CommandMsg | string;
    if (HAS_OTA && t === otaTopic) {
      try {
        update(p);
      } catch (e) {
        err("ota", "" + e);
      }
      return;
    }
    if (t !== cueTopic && t !== cmdTopic) return;
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
    update = ota(
      function (m: string) {
        send(topic("otas"), m, 1, false);
      },
      err,
      volts,
      c,
    );
  trigger(function (k: TriggerKind, t: number, d: number) {
    if (k === "p" && c.click) click();
    send(topic("trig"), encTrig(++seq, k, t, d), 1, false);
  });
  var imuError = imu.start();
  // the clock probes: five quick ones after connecting, then one every 10 s (each also tells the hub how late the
  // last answer came: its lead-in for counts); info every minute
  setInterval(function () {
    if (!mq.up) return;
    ticks++;
    if (ticks < 6 || ticks % 10 === 0) sync();
    if (ticks % 60 === 0) info();
  }, 1000);
  rate(hz);
  if (serial) slStart(c, root);
  else
    wifi(c.wifi, function () {
      mqConnect();
    });
  // connected to nothing yet; the IMU error goes out once the hub is there
  var onup = mq.onup;
  if (imuError) {
    mq.onup = function () {
      onup();
      err("imu", imuError!);
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

// Espruino's ESP builds open a JavaScript console on TCP 23 at every boot (libs/network/telnet): anyone on the WiFi
// would read gun.json there. Off here, before the first idle, where it would start listening.
if (LINK_WIFI) require("TelnetServer").setOptions({ mode: "off" });
// an ESP32's Bluetooth UART takes the console from any central that connects, unless it is forced where it is
if (CHIP === "ESP32") Serial1.setConsole(true);
// an updated firmware (ota.ts) runs instead of this one when Storage names one
if (!(HAS_OTA && boot())) start();
