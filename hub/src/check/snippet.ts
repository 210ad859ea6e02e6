// The builder's check: one piece of JavaScript for a board's REPL (pasted into the Espruino Web IDE, or sent by
// `cng check`), made from the board's profile, that prints what no simulator can know of the board in hand — the
// IMU's WHO_AM_I and its read time, the battery as the ADC reads it, the LED's colours and the buzzer's tones in turn
// (watch and listen), and the gun firmware's own work per IMU sample on this chip — then restarts the gun (`load()`).
// A Puck.js gives its console only when started with its button held (hardware/PUCK.md): the check runs there.
// ES5 for Espruino: the build's checks pass it (tests/espruino/check.test.ts runs it on the interpreter).

import { adcTransfer, imuHz, imuOf, ledOnUsb, loadChip, loadImuIds } from "../boards/chips.js";
import type { BoardProfile } from "../boards/profile.js";

/** Every line the check prints starts with this. */
export const CHECK_MARK = "CHECK ";

/** Each colour the LED shows in turn, and each tone the buzzer plays: what the builder looks and listens for. */
export const CHECK_COLOURS: [number, string][] = [
  [0xff0000, "red"],
  [0x00ff00, "green"],
  [0x0000ff, "blue"],
];
export const CHECK_TONES = [1000, 2000, 4000];
/** how long the gun firmware runs under the stopwatch: under the 2 s after which a serial gun moves its console */
export const CHECK_RUN_MS = 1500;

/** A pin or a serial device as Espruino names it (a global), anything else as a JS literal. */
const js = (v: unknown): string =>
  typeof v === "string" && /^(D\d{1,2}|A\d|Serial\d)$/.test(v) ? v : JSON.stringify(v);

/** One step of the check: run `body` this many ms after the step before. */
type Step = [ms: number, body: string];

export function checkSnippet(b: BoardProfile): string {
  const ids = loadImuIds(b.imu.kind);
  const names = Object.fromEntries((ids?.whoAmI ?? []).map(([id, n]) => [id, n]));
  const steps: Step[] = [
    [0, `P("board ${b.name} (${b.chip}), Espruino "+process.env.VERSION+", "+process.memory().free+" JsVars free");`],
    // the IMU: who it says it is, and how it reads (hardware/imus: each kind's check)
    [100, imuOf(b)!.check.read(b.imu, js)],
    batteryStep(b),
    ...ledSteps(b),
    ...buzzerSteps(b),
    firmwareStep(b),
  ];
  return (
    `(function(){var T=0,N=${JSON.stringify(names)};` +
    `function P(s){print(${JSON.stringify(CHECK_MARK)}+s);}` +
    `function at(ms,f){T+=ms;setTimeout(f,T);}` +
    `${steps.map(([ms, body]) => `at(${ms},function(){${body}});`).join("")}})();`
  );
}

/** The battery as the ADC reads it, through the divider, with the calibration gun.json keeps. */
function batteryStep(b: BoardProfile): Step {
  const adc = loadChip(b.chip).adc;
  const bat = b.bat && adc ? { pin: b.bat.pin, ...adcTransfer(adc, b.bat.div), counts: adc.counts } : undefined;
  if (bat) {
    const n = b.chip === "ESP32" ? 8 : 1;
    return [
      1200,
      `var s=0,i,v,j=require("Storage").readJSON("gun.json",1)||{},k=j.bat===false?0:j.bat||1;` +
        `for(i=0;i<${n};i++)s+=analogRead(${js(bat.pin)});s/=${n};v=s*${bat.a}+${bat.b};` +
        // (no toFixed: Espruino rounds it its own way)
        `P("battery ${bat.pin}: count "+Math.round(s*${bat.counts})+" of ${bat.counts}, "+Math.round(v*100)/100+" V as read"+` +
        `(k?", "+Math.round(v*k*100)/100+" V with gun.json's calibration "+k:", but gun.json says none is fitted (bat false)")+` +
        `": compare with a multimeter across the cell");`,
    ];
  }
  if (b.chip === "NRF52") return [1200, `P("battery "+E.getBattery()+" % (the coin cell, as the chip reads it)");`];
  return [1200, `P("battery: not measured (no divider on this board)");`];
}

/** The LED, each colour in turn, then off; first, what a dark LED means with this wiring (the check runs on USB). */
function ledSteps(b: BoardProfile): Step[] {
  const L = b.led;
  const m = L.max ?? 1;
  const show = (c: number) => {
    const ch = [(c >> 16) & 255, (c >> 8) & 255, c & 255].map((x) => (x * m) / 255);
    if (L.kind === "neopixel") {
      const [r, g, bl] = ch.map((x) => Math.round(x * 255));
      return `require("neopixel").write(${js(L.pin)},[${g},${r},${bl}]);`;
    }
    return [L.pr, L.pg, L.pb]
      .map((p, i) => {
        const v = L.inv ? 1 - ch[i]! : ch[i]!;
        return v <= 0
          ? `digitalWrite(${js(p)},0);`
          : v >= 1
            ? `digitalWrite(${js(p)},1);`
            : `analogWrite(${js(p)},${v}${b.chip === "ESP8266" ? ",{freq:200}" : ""});`;
      })
      .join("");
  };
  const steps: Step[] = [];
  const dark = ledOnUsb(b);
  if (dark) steps.push([0, `P(${JSON.stringify(`led: ${dark}`)});`]);
  for (const [c, name] of CHECK_COLOURS)
    steps.push([1000, `${show(c)}P("led ${name} now: is it ${name}, and bright?");`]);
  steps.push([1000, `${show(0)}P("led off");`]);
  return steps;
}

/** The buzzer, each tone in turn, then quiet. */
function buzzerSteps(b: BoardProfile): Step[] {
  const pin = js(b.bz.pin);
  return [
    ...CHECK_TONES.map(
      (f): Step => [
        600,
        `analogWrite(${pin},0.5,{freq:${f}${b.bz.soft ? ",soft:true" : ""}});P("buzzer ${f} Hz now: do you hear it?");`,
      ],
    ),
    [600, `digitalWrite(${pin},0);P("buzzer off");`],
  ];
}

/** The gun firmware's own work per IMU sample, timed while it runs; then the gun restarts clean. */
function firmwareStep(b: BoardProfile): Step {
  const check = imuOf(b)!.check;
  const hz = imuHz(b);
  const hook = check.hook(b.imu, hz);
  // a gun on Bluetooth takes its link, and the console with it, as it starts, unless its trigger is held: under the
  // stopwatch it reads it held, so the builder's console stays (the restart after it takes the link as usual)
  const keep =
    b.con === "Bluetooth"
      ? `var dr=digitalRead;global.digitalRead=function(p){return p==${js(b.trig.pin)}?${b.trig.pressed ? 1 : 0}:dr(p);};`
      : "";
  return [
    300,
    `var S=require("Storage"),c=S.read(".bootcde");` +
      `if(!c||!S.read("gun.json")){P("imu work: not timed (no gun firmware or gun.json here: cng flash it, then check again)");P("done");return;}` +
      `global.H={n:0,s:0};try{${hook}${keep}}catch(e){P("imu work: not timed ("+e+")");P("done");return;}` +
      `setTimeout(c,0);` +
      `setTimeout(function(){P("imu work "+(H.n?Math.round(H.s/H.n*1e6):0)+" us per sample, "+H.n+" samples in ${CHECK_RUN_MS / 1000} s, ${check.per(b.imu, hz)}");P("done");setTimeout(load,300);},${CHECK_RUN_MS});`,
  ];
}
