// The upload itself, run by EspruinoTools (the `espruino` npm package, used as a library) in a
// child Node process: EspruinoTools loads its modules into globals (`Espruino`, `$`, `require`),
// logs freely and throws from serialport events, so it gets a process of its own. The child reads
// a job file, talks to the board through EspruinoTools' own serial layer (its serialport 10), and
// reports on file descriptor 3, one JSON object a line:
//   {"hello":{"version":"2v25","board":"ESP32"}}   the board answered
//   {"step":"send","done":1200,"total":17000}       bytes sent
//   {"step":"verify"} / {"done":true}
//   {"error":"no-answer"|"board-error"|"verify"|"port"|"offline","message":"..."}
//
// Offline: the board file is the local one from the job (hardware/boards/espruino/<chip>.json),
// ENV_ON_CONNECT is off (it would fetch www.espruino.com/json/<BOARD>.json), and every
// EspruinoTools web fetch (getURL/getJSONURL/getBinaryURL) is replaced by one that refuses.

/** Written to a temp dir as `upload.cjs` and run as `node upload.cjs job.json`. */
export const DRIVER_SOURCE = String.raw`"use strict";
const fs = require("fs");
const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = (m) => { try { fs.writeSync(3, JSON.stringify(m) + "\n"); } catch (e) {} };
let finished = false;
const fail = (error, message) => {
  if (finished) return;
  finished = true;
  out({ error, message });
  try { if (Espruino.Core.Serial.isConnected()) Espruino.Core.Serial.close(); } catch (e) {}
  setTimeout(() => process.exit(1), 200);
};
process.on("uncaughtException", (e) => {
  const m = String((e && e.message) || e);
  // EspruinoTools' Bluetooth layers (node-ble over D-Bus) fail where there is no D-Bus: harmless
  if (/dbus|system_bus_socket|noble|bluetooth/i.test(m + ((e && e.stack) || ""))) return debug("ignored: " + m);
  // serialport: "Error: Permission denied, cannot open /dev/ttyUSB0"
  const open = /^(?:Error: )?(.*), cannot open /.exec(m);
  fail("port", open ? "cannot open " + job.port + ": " + open[1] : m);
});
// EspruinoTools talks on the console; keep it for --verbose, off the protocol channel
const debug = (...a) => { if (job.verbose) process.stderr.write("espruino: " + a.map(String).join(" ") + "\n"); };
console.log = debug; console.info = debug; console.warn = debug;
const notices = [];
console.error = (...a) => { notices.push(a.map(String).join(" ")); debug(...a); };

require(job.espruino).init(() => {
  const E = Espruino;
  const fetched = [];
  const refuse = (url, cb) => { fetched.push(String(url)); debug("refused web fetch " + url); cb(undefined); };
  E.Core.Utils.getURL = refuse;
  E.Core.Utils.getJSONURL = refuse;
  E.Core.Utils.getBinaryURL = refuse;
  E.Core.Notifications = {
    success: debug, info: debug, warning: debug,
    error: (m) => { notices.push(String(m)); debug("error: " + m); },
  };
  let uploading = false, total = 0, sent = 0, shown = -1;
  E.Core.Status = {
    setStatus: (text, len) => { if (text === "Sending..." && len) { total = len; sent = 0; } },
    hasProgress: () => false,
    incrementProgress: (n) => {
      sent += n;
      const pc = total ? Math.floor((100 * sent) / total) : 0;
      if (uploading && total && pc !== shown) { shown = pc; out({ step: "send", done: Math.min(sent, total), total }); }
    },
  };
  // EspruinoTools waits for the prompt after an upload by looking at its terminal's last line
  let rx = "";
  E.Core.Terminal = { getTerminalLine: () => rx.slice(rx.lastIndexOf("\n") + 1).replace(/\r/g, "") };
  const listen = (d) => {
    rx += Buffer.from(d).toString("latin1");
    if (rx.length > 4096) rx = rx.slice(-1024);
  };
  Object.assign(E.Config, {
    BAUD_RATE: job.baud,
    BLUETOOTH_LOW_ENERGY: false,
    BLUETOOTH_LOW_ENERGY_DBUS: false,
    ENV_ON_CONNECT: false,
    MINIFICATION_LEVEL: "",
    MODULE_MINIFICATION_LEVEL: "",
    PRETOKENISE: 0,
    COMPILATION: false,
    SET_TIME_ON_WRITE: false,
    RESET_BEFORE_SEND: true,
    SAVE_ON_SEND: 3,
    SAVE_STORAGE_FILE: ".bootcde",
    LOAD_STORAGE_FILE: 0,
  });
  // EspruinoTools opens only ports its device list names; serialport cannot list without udev
  // (containers, WSL) nor list pseudo-terminals, so the given path is always on the list
  const nodeSerial = (E.Core.Serial.devices || []).find((d) => d.name === "Node Serial");
  if (!nodeSerial) return fail("port", "EspruinoTools has no serial support: its serialport module did not load");
  const list = nodeSerial.getPorts;
  nodeSerial.getPorts = (cb) => list((ports, again) => {
    ports = (ports || []).filter((p) => p.path !== job.port);
    cb([{ path: job.port, description: "cng flash" }, ...ports], again);
  });
  const env = E.Core.Env.getData();
  Object.assign(env, JSON.parse(fs.readFileSync(job.boardJson, "utf8")));
  E.callProcessor("boardJSONLoaded", env, () => {
    E.Core.Serial.startListening(listen);
    E.Core.Serial.open(job.port, (status) => {
      if (status === undefined) return fail("port", "cannot open " + job.port);
      start();
    }, () => { if (!finished) fail("port", job.port + " closed during the upload"); });
  });

  const after = (ms, f) => setTimeout(f, ms);
  function start() {
    // a gun on its serial link (hardware/SERIAL.md) hands the console back on this line; a plain
    // console prints a syntax error, which EspruinoTools' Ctrl-C before the next command clears
    // (EspruinoTools' Serial.write calls back only for long writes: short ones are timed)
    E.Core.Serial.write('\nrepl {"v":1}\n', false);
    after(300, hello);
  }
  function hello() {
    E.Core.Utils.executeExpression("process.env", (r) => {
      let penv;
      try { penv = JSON.parse(r); } catch (e) {}
      if (!penv || typeof penv.VERSION !== "string") {
        return fail("no-answer", "no answer from an Espruino console: check the port, that Espruino is flashed on the board, and the baud rate");
      }
      for (const k in penv) env[k] = penv[k];
      E.Core.Env.setFirmwareVersion(penv.VERSION);
      out({ hello: { version: penv.VERSION, board: penv.BOARD } });
      upload();
    }, { minTimeout: job.answerSeconds });
  }
  function upload() {
    const bundle = fs.readFileSync(job.bundle, "latin1");
    const config = fs.readFileSync(job.config, "latin1");
    E.callProcessor("transformForEspruino", bundle, (code) => {
      if (fetched.length) return fail("offline", "EspruinoTools wanted to download " + fetched.join(", "));
      if (!/^require\("Storage"\)\.write\("\.bootcde",/.test(code)) {
        return fail("board-error", "EspruinoTools did not upload to Storage (firmware " + env.VERSION + " predates Storage?)");
      }
      // as the espruino CLI does for --storage gun.json:file
      code = E.Core.Utils.getUploadFileCode("gun.json", config) + "\n" + code;
      // updates over the air (firmware/src/ota.ts) ran instead of .bootcde: the bundle flashed now runs, not them
      code = job.erase.map((f) => 'require("Storage").erase("' + f + '");\n').join("") + code;
      notices.length = 0;
      rx = "";
      uploading = true;
      E.Core.CodeWriter.writeToEspruino(code, () => {
        uploading = false;
        out({ step: "send", done: total, total });
        const bad = notices.find((n) => /upload failed|Uncaught|Error/i.test(n));
        if (bad) return fail("board-error", "upload failed: " + bad);
        if (/Uncaught[^\r\n]*/.test(rx)) return fail("board-error", "the board said: " + /Uncaught[^\r\n]*/.exec(rx)[0]);
        verify(bundle, config);
      });
    });
  }
  function verify(bundle, config) {
    out({ step: "verify" });
    E.Core.Utils.downloadFile(".bootcde", (back) => {
      if (back !== bundle) return fail("verify", ".bootcde read back differs from the bundle (" + (back === undefined ? "no answer" : back.length + " bytes, expected " + bundle.length) + ")");
      E.Core.Utils.downloadFile("gun.json", (cfg) => {
        if (cfg !== config) return fail("verify", "gun.json read back differs from the config");
        if (!job.run) return done();
        E.Core.Serial.write("\x10load()\n", false);
        after(500, done);
      });
    });
  }
  function done() {
    finished = true;
    out({ done: true });
    E.Core.Serial.close();
    after(300, () => process.exit(0));
  }
});
`;
