// Ambient declarations for the Espruino globals the firmware uses (and for what the build bakes in).
// Only what Espruino really has: keep this list honest, it is the firmware's view of the board.

/** A pin: `D14` on the board; the virtual board uses its own objects. */
type Pin = any;

interface WatchEvent {
  state: boolean;
  /** getTime() of the edge, seconds */
  time: number;
  lastTime?: number;
}

interface EspI2C {
  setup(o: { scl: Pin; sda: Pin; bitrate?: number }): void;
  writeTo(addr: number, data: number | number[]): void;
  readFrom(addr: number, n: number): Uint8Array;
}

interface EspSerial {
  setup(baud: number, o?: { rx?: Pin; tx?: Pin }): void;
  on(ev: "data", fn: (d: string) => void): void;
  write(d: string): void;
  /** the console (REPL) on this device; `true`: keep it here even when USB connects */
  setConsole(force?: boolean): void;
}

interface EspSocket {
  on(ev: "data", fn: (d: string) => void): void;
  on(ev: "close" | "end", fn: () => void): void;
  on(ev: "error", fn: (e: any) => void): void;
  write(d: string): void;
  end(): void;
}

declare var I2C1: EspI2C;
/** The ESP chips' USB serial port. */
declare var Serial1: EspSerial;
/** A serial device looped back on itself: somewhere to park the console. */
declare var LoopbackA: EspSerial;
declare function getTime(): number;
declare function setWatch(
  fn: (e: WatchEvent) => void,
  pin: Pin,
  o: { repeat: boolean; edge: string; debounce: number },
): number;
declare function digitalWrite(pin: Pin, v: number | boolean): void;
declare function digitalRead(pin: Pin): number;
declare function analogWrite(pin: Pin, v: number, o?: { freq?: number; soft?: boolean }): void;
declare function analogRead(pin: Pin): number;
declare function pinMode(pin: Pin, mode: string): void;
declare function setTimeout(fn: () => void, ms: number): number;
declare function setInterval(fn: () => void, ms: number): number;
declare function clearTimeout(id: number): void;
declare function clearInterval(id: number): void;
declare function require(name: "net"): { connect(o: { host: string; port: number }, cb: () => void): EspSocket };
declare function require(name: "Wifi"): {
  connect(ssid: string, o: { password: string }, cb: (err: any) => void): void;
  on(ev: string, fn: (d: any) => void): void;
  /** ESP32: `rssi` (dBm) here while connected */
  getStatus(): { rssi?: number };
  /** ESP8266: `rssi` (dBm) here */
  getDetails(): { rssi?: number };
  /** `powersave`: "none" keeps the radio awake (ESP32 also "min", "max"; ESP8266 "ps-poll") */
  setConfig(c: { powersave?: string }): void;
  /** the soft access point off (ESP8266: the SDK keeps the mode in its flash) */
  stopAP(): void;
};
/** ESP32, ESP8266 (libs/network/telnet): the JavaScript console on TCP 23, on from every boot */
declare function require(name: "TelnetServer"): { setOptions(o: { mode: "on" | "off" }): void };
/** ESP32 (boards/ESP32.py: CRYPTO, SHA256): a 32-byte ArrayBuffer */
declare function require(name: "crypto"): { SHA256(m: string): ArrayBuffer };
/** UDP (find.ts): a socket sends with its first `send`, and gets the answers to it as `message` events */
declare function require(name: "dgram"): {
  createSocket(type: "udp4"): {
    on(ev: "message", fn: (msg: string, rinfo: { address: string; port: number }) => void): void;
    send(msg: string, port: number, address: string): void;
    close(): void;
  };
};
declare function require(name: "Storage"): {
  readJSON(name: string, noExceptions: boolean): any;
  /** Espruino writes JS notation here (`{id:"g1"}`, keys unquoted), not JSON: use write + JSON.stringify */
  writeJSON(name: string, data: any): boolean;
  write(name: string, data: string, offset?: number, size?: number): boolean;
  read(name: string): string | undefined;
  erase(name: string): void;
  getStats(): { freeBytes: number; trashBytes: number; totalBytes: number };
};
declare function require(name: "neopixel"): { write(pin: Pin, d: number[]): void };
declare var E: {
  reboot(): void;
  CRC32(s: string): number;
  /** the bytes of an ArrayBuffer as a string */
  toString(a: ArrayBuffer): string;
  /** Puck.js (nRF52): the coin cell, percent (2.2-2.8 V of a CR2032) */
  getBattery(): number;
};
/** One reading of the Puck.js v2's LSM6DS3TR-C, raw int16 counts along the chip's axes */
interface PuckXyz {
  x: number;
  y: number;
  z: number;
}
/** Puck.js (Espruino's PUCKJS build, libs/puckjs/jswrap_puck.c): its accelerometer + gyro */
declare var Puck: {
  /** samples at 12.5, 26, 52, 104 or 208 Hz (accel ±4 g, gyro at its lowest range: "±245 dps" in Espruino's reference,
   * the LSM6DS3TR-C's 250 dps setting): an `accel` event each */
  accelOn(hz?: number): void;
  accelOff(): void;
  /** writes a register of the LSM6DS3TR-C (CTRL2_G 0x11: the gyro's rate and range) */
  accelWr(reg: number, v: number): void;
  on(ev: "accel", fn: (e: { acc: PuckXyz; gyro: PuckXyz }) => void): void;
};
/** Puck.js (nRF52, libs/bluetooth/jswrap_bluetooth.c): its Bluetooth LE */
declare var NRF: {
  /** a central connected (its address) or went (the reason) */
  on(ev: "connect" | "disconnect", fn: (a: any) => void): void;
  /** a static 6-digit passkey needs mitm and display; it makes the Nordic UART take only an encrypted, bonded link */
  setSecurity(o: { passkey?: string; mitm?: number; display?: number }): void;
};
/** Espruino's global object */
declare var global: any;
declare var process: { memory(): { free: number; total: number }; env: { VERSION?: string } };
declare var console: { log(...a: any[]): void };

/** The board profile, baked in by the build (hardware/boards/<board>.json, pins as Espruino pin globals). */
declare var BOARD: {
  name: string;
  /** the IMU's and the LED's kind are the build-time constants IMU_KIND and LED_KIND */
  imu: {
    scl?: Pin;
    sda?: Pin;
    addr?: number;
    hz?: number;
    ser?: EspSerial;
    rx?: Pin;
    /** the serial IMU's TX pin (unused by UART-RVC, named so that no default pin is taken) */
    tx?: Pin;
    sbaud?: number;
    /** how the chip sits in the gun (boards with "mount"): forward axis, up axis, e.g. "+x-z" */
    mount?: string;
  };
  trig: { pin: Pin; pressed: number };
  led: { pin?: Pin; pr?: Pin; pg?: Pin; pb?: Pin; inv?: boolean; max?: number };
  bz: { pin: Pin; soft?: boolean };
  /** the serial link's device (`Serial1` on ESP32/ESP8266, `USB` elsewhere, `Bluetooth` on a Puck.js), with that link */
  con?: EspSerial;
};
/**
 * The LiPo through the profile's divider (`bat`), as build-time constants: BAT when there is one, its pin, and the
 * reading's transfer to volts, volts = analogRead(BAT_PIN) × BAT_A + BAT_B (the chip's ADC and the divider:
 * firmware/build/build.mjs batTransfer). ADC_N: readings the volts are the mean of (the ESP32's ADC is the noisy one).
 */
declare var BAT: boolean;
declare var BAT_PIN: Pin;
declare var BAT_A: number;
declare var BAT_B: number;
declare var ADC_N: number;
/** The WHO_AM_I answers of the parts sold under the board's IMU kind (hardware/imus), a build-time constant. */
declare var IMU_IDS: number[];
/** The MPU-6050's registers the driver uses (firmware/espruino/chips/mpu6050-map.mjs), build-time constants. */
declare var MPU_SMPLRT_DIV: number;
declare var MPU_ACCEL_XOUT_H: number;
declare var MPU_PWR_MGMT_1: number;
declare var MPU_WHO_AM_I: number;
/** Firmware version, baked in by the build. */
declare var FW: string;
/** The IMU kind and LED kind as build-time constants, so the bundle carries only its own drivers. */
declare var IMU_KIND: string;
/** the IMU's rate unless the profile gives one (hardware/imus: its kind's `hz`), a build-time constant */
declare var IMU_HZ: number;
declare var LED_KIND: string;
/** The RGB LED is common anode (profile `led.inv`): its legs are driven inverted. A build-time constant. */
declare var LED_INV: boolean;
/** The profile's chip ("ESP32", "ESP8266", "NRF52"), a build-time constant: where the chips' Espruino builds differ. */
declare var CHIP: string;
/** The board's profile lists the "serial" link: the bundle carries serial.ts (hardware/SERIAL.md). */
declare var LINK_SERIAL: boolean;
/** The board's profile lists the "wifi" link (all but the Puck.js): the bundle carries WiFi + MQTT. Without it the
 * serial link is the only one, whatever gun.json says. */
declare var LINK_WIFI: boolean;
/** Optional features from the profile's `has` (firmware/build/build.mjs FEATURES): OTA updates, finding the hub
 * by UDP, IMU mounting, WiFi signal in info. False = the code is left out of that board's bundle. */
declare var HAS_OTA: boolean;
declare var HAS_FIND: boolean;
declare var HAS_MOUNT: boolean;
declare var HAS_RSSI: boolean;
/** the battery reading calibrated from Setup (the `bat` command), boards with "batcal" */
declare var HAS_BATCAL: boolean;
