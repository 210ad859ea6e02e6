// The BNO085 in UART-RVC mode (PS0 high): it fuses on the chip and sends its heading, pitch and roll as frames.
const baud = (imu) => imu.sbaud ?? 115200;

/** @type {import("./index.mjs").ImuKind} */
export default {
  kind: "bno085",
  name: "BNO085",
  bus: "uart",
  // its firmware driver, firmware/src/bno085.ts
  driver: "bno085",
  // its frame model (firmware/espruino/chips/bno085-rvc.mjs), on the profile's serial port
  model: "Bno085Rvc",
  hz: 100,
  needs: { fields: ["ser", "rx"], why: "imu.ser and imu.rx are required for a BNO085 in UART-RVC mode" },
  pins: (imu) => [
    // the IMU's UART output idles high
    { what: "IMU RX", pin: imu.rx, needs: "rx", atReset: "high" },
    ...(imu.tx ? [{ what: "IMU TX", pin: imu.tx, needs: "out", atReset: "open" }] : []),
  ],
  pinProblems: (imu, chip) => {
    if (!chip.serial?.[imu.ser] || imu.tx) return [];
    const d = chip.serial[imu.ser];
    return [
      `imu.tx missing: ${imu.ser}.setup with only rx drives D${d.tx} as its TX (${chip.serial.why}); name a free pin`,
    ];
  },
  part: {
    part: "IMU BNO085",
    module: "Adafruit BNO085 (4754) or a GY-BNO08X breakout with the PS0/P0 pin broken out",
    eur: 20,
    note: "must support UART-RVC (PS0 pin)",
  },
  module: "BNO085 breakout",
  rating: {
    what: "BNO085 breakout (Adafruit 4754: its own 3.3 V regulator)",
    vin: [3.0, 5.0],
    ma: 15,
    why: "3-5 V into its regulator; the chip takes 2.4-3.6 V and ≈ 10-15 mA fusing at 100 Hz",
    src: "Adafruit BNO085 guide; CEVA BNO08x datasheet",
    seen: "unconfirmed",
  },
  current: [12, "BNO085 in UART-RVC at 100 Hz: ≈ 10-15 mA (CEVA datasheet, varies with the fusion running)"],
  size: "BNO085 breakout ≈ 25 × 18",
  wiring: (imu, three) => [
    ["IMU (BNO085)", "VIN", three, ""],
    ["IMU (BNO085)", "GND", "GND", ""],
    ["IMU (BNO085)", "SDA/TX", imu.rx, `UART-RVC frames out, ${baud(imu)} baud, read by ${imu.ser}`],
    ["IMU (BNO085)", "P0 (PS0)", three, "high = UART-RVC mode; P1 stays low"],
    ...(imu.tx
      ? [
          [
            "IMU (BNO085)",
            "(nothing)",
            imu.tx,
            `${imu.ser}'s TX: leave it unconnected; named so that ${imu.ser} takes no default pin`,
          ],
        ]
      : []),
  ],
  summary: (imu) => `BNO085 UART-RVC on ${imu.ser}, RX ${imu.rx}`,
  check: {
    // its frames in a second, checksums checked (datasheet 1000-3927 §1.3.5.2: 0xAAAA, 16 bytes, their sum)
    read: (imu, js) => {
      const ser = imu.ser;
      return (
        `var buf="",f=0,bad=0;${ser}.setup(${baud(imu)},{rx:${js(imu.rx)},tx:${js(imu.tx)}});` +
        `${ser}.on("data",function(d){var i,k,s;buf+=d;for(;;){i=buf.indexOf("\\xaa\\xaa");if(i<0||buf.length<i+19)return;` +
        `s=0;for(k=2;k<18;k++)s+=buf.charCodeAt(i+k);if((s&255)===buf.charCodeAt(i+18))f++;else bad++;buf=buf.substr(i+19);}});` +
        `setTimeout(function(){${ser}.removeAllListeners("data");` +
        `P("imu BNO085 UART-RVC: "+f+" frames in 1 s"+(bad?", "+bad+" with a wrong checksum":"")+(f?"":": check its TX to ${imu.rx}, P0 (PS0) high, VIN, GND"));},1000);`
      );
    },
    hook: (imu) =>
      `var o=${imu.ser},on=o.on;o.on=function(ev,f){return on.call(o,ev,ev==="data"?function(d){var t=getTime();f(d);H.n++;H.s+=getTime()-t;}:f);};`,
    per: () => "per UART data event",
  },
};
