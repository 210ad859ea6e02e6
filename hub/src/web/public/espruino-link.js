// The dashboard's one way to an Espruino board: @espruino-tools/core's UART, over Web Bluetooth (a Puck.js gun) or
// Web Serial (a gun on the laptop's USB). The library is loaded only when a page asks for a board, so a phone
// showing the table never downloads it. Its connection picker is a modal of its own; we click the kind the page
// asked for inside the user's click, so the browser's own device chooser comes straight up.

/** @typedef {"bluetooth" | "serial"} LinkKind */

/**
 * A byte stream to one board, as text (latin1: one char per byte, as Espruino's console speaks).
 * @typedef {object} BoardLink
 * @property {LinkKind} kind
 * @property {(data: string) => Promise<void>} write   resolves once the bytes went out
 * @property {(cb: (data: string) => void) => void} onData
 * @property {(cb: () => void) => void} onClose   the link dropped (out of range, unplugged) or was closed
 * @property {() => void} close
 * @property {(() => Promise<BoardLink>) | null} reopen   the same board again without the chooser (Bluetooth: the
 *   device the person picked, connected again once back in range; no user gesture needed); null where it cannot
 */

const VENDOR = "/vendor/espruino-tools.min.js";
const ENDPOINT = { bluetooth: "Web Bluetooth", serial: "Web Serial" };
/** the library's connection modal: its items are named by endpoint */
const ENDPOINT_NAME = ".esp-tools-name";

/**
 * Why this browser cannot open this kind of link, or null when it can. Both APIs exist only in a secure context:
 * the dashboard on the laptop itself (http://localhost) has one, a phone on http://<LAN address> does not.
 * @param {LinkKind} kind
 * @returns {null | "insecure" | "unsupported"}
 */
export function linkBlocker(kind) {
  if (!window.isSecureContext) return "insecure";
  const api = kind === "bluetooth" ? navigator.bluetooth : navigator.serial;
  return api ? null : "unsupported";
}

/** The library logs every chunk at its fixed, private debug level: keep its per-chunk lines out of the console. */
function quietChunks() {
  const log = console.log;
  console.log = (...a) => {
    if (typeof a[0] === "string" && /^<UART> (Received|Sending|Sent)\b/.test(a[0])) return;
    log(...a);
  };
}

let loading = null;
/** @returns {Promise<any>} the library's global (ESPT_core) */
function library() {
  if (globalThis.ESPT_core) return Promise.resolve(globalThis.ESPT_core);
  loading ??= new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = VENDOR;
    s.onload = () => {
      if (!globalThis.ESPT_core) reject(new Error("no ESPT_core"));
      quietChunks();
      resolve(globalThis.ESPT_core);
    };
    s.onerror = () => {
      loading = null;
      reject(new Error(`could not load ${VENDOR}`));
    };
    document.head.append(s);
  });
  return loading;
}

/** Loads the library ahead of the click (the click must reach the device chooser while it still counts as one). */
export function preloadLink() {
  return library().then(
    () => true,
    () => false,
  );
}

/** Where the library's next requestDevice() goes: the device to reuse, and where to keep the one picked. */
let choosing = null;
/**
 * The library always asks the browser's chooser for a Bluetooth device. Wrapped once: the device the person picked
 * is kept with its link, and a reopen hands that same device back, so the library's own connect (gatt.connect,
 * the Nordic UART's characteristics) runs again without a chooser.
 */
function keepBluetoothDevice() {
  const bt = navigator.bluetooth;
  if (!bt || bt.cngKeeps) return;
  const request = bt.requestDevice.bind(bt);
  bt.cngKeeps = true;
  bt.requestDevice = (options) => {
    const c = choosing;
    choosing = null;
    if (c?.device) return Promise.resolve(c.device);
    return request(options).then((d) => {
      if (c) c.device = d;
      return d;
    });
  };
}

/** The serial port the library was last handed, wrapped (see keepSerialPort). */
let lastPort = null;
/**
 * The library's serial read loop asks its port for a new reader after every chunk, and its close() drops the port
 * first: a chunk arriving as the link closes makes that loop throw. Wrapped once: the library reads our own stream,
 * fed from the port's, and the link closes by ending that stream (the loop sees "done" and stops), then cancels the
 * port's reader and closes the port, as Web Serial wants (a locked port does not close).
 */
function keepSerialPort() {
  const serial = navigator.serial;
  if (!serial || serial.cngKeeps) return;
  const request = serial.requestPort.bind(serial);
  serial.cngKeeps = true;
  serial.requestPort = (options) =>
    request(options).then((port) => {
      let reader = null;
      let ended = false;
      /** @type {ReadableStreamDefaultController | null} */
      let out = null;
      const end = () => {
        if (ended) return;
        ended = true;
        try {
          out?.close();
        } catch {}
      };
      const readable = new ReadableStream({
        start(c) {
          out = c;
        },
        async pull(c) {
          if (ended) return;
          reader ??= port.readable.getReader();
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (ended) return;
          if (done) end();
          else if (value) c.enqueue(value);
        },
      });
      const wrapped = {
        open: (o) => port.open(o),
        get readable() {
          return readable;
        },
        get writable() {
          return port.writable;
        },
        close: async () => {
          end();
          if (reader) {
            await reader.cancel().catch(() => {});
            reader.releaseLock();
          }
          await port.close().catch(() => {});
        },
      };
      lastPort = wrapped;
      return wrapped;
    });
}

/**
 * The link over the library's open connection `c`: written while open; its data and its close to one listener each;
 * closed by ending the serial port's stream (`port`) or the connection.
 * @param {LinkKind} kind
 * @param {any} c
 * @param {any} port
 * @param {(() => Promise<BoardLink>) | null} reopen
 * @returns {BoardLink}
 */
function linkOver(kind, c, port, reopen) {
  let open = true;
  /** @type {(data: string) => void} */
  let dataCb = () => {};
  /** @type {() => void} */
  let closeCb = () => {};
  c.on("data", (d) => dataCb(d));
  c.on("close", () => {
    if (!open) return;
    open = false;
    closeCb();
  });
  return {
    kind,
    write: (data) =>
      new Promise((res, rej) => {
        if (!open) {
          rej(new Error("the link is closed"));
          return;
        }
        c.write(data, () => res());
      }),
    onData: (cb) => {
      dataCb = cb;
    },
    onClose: (cb) => {
      closeCb = cb;
    },
    close: () => {
      if (!open) return;
      // a serial link ends its stream: the library's loop sees "done" and reports the close itself
      if (port) port.close();
      else c.close();
      if (open) {
        open = false;
        closeCb();
      }
    },
    reopen,
  };
}

/**
 * Opens a link: call from a click handler, after preloadLink() resolved (the chooser needs the user's gesture).
 * Rejects when the person closes the chooser or the board does not answer.
 * @param {LinkKind} kind
 * @param {any} [device] Bluetooth: the device to connect again (no chooser); see BoardLink.reopen
 * @returns {Promise<BoardLink>}
 */
export function openLink(kind, device) {
  const lib = globalThis.ESPT_core;
  if (!lib) return Promise.reject(new Error("the board library is not loaded yet"));
  const uart = new lib.DeviceController().UART;
  const chosen = { device: device ?? null };
  if (kind === "bluetooth") keepBluetoothDevice();
  else keepSerialPort();
  /** the wrapped serial port of this link, once the library opened it */
  let port = null;
  return new Promise((resolve, reject) => {
    let connected = false;
    const conn = uart.connect((c) => {
      if (!c) {
        reject(new Error("no board chosen"));
        return;
      }
      connected = true;
      if (kind === "serial") port = lastPort;
      resolve(
        linkOver(kind, c, port, kind === "bluetooth" && chosen.device ? () => openLink(kind, chosen.device) : null),
      );
    });
    // A cancelled chooser or a failed connect only clears the connection's `isOpening` (no event, no callback):
    // watch it, so the page can say so instead of waiting forever.
    const watch = setInterval(() => {
      if (connected) clearInterval(watch);
      else if (!conn.isOpening) {
        clearInterval(watch);
        reject(new Error("the board did not connect"));
      }
    }, 200);
    const item = [...document.querySelectorAll(ENDPOINT_NAME)].find((e) => e.textContent === ENDPOINT[kind]);
    if (!item?.parentElement) {
      clearInterval(watch);
      reject(new Error(`the board library offers no ${ENDPOINT[kind]}`));
      return;
    }
    // (the library asks for the device within this click: the wrapper above sees `choosing` set)
    choosing = kind === "bluetooth" ? chosen : null;
    try {
      item.parentElement.click();
    } finally {
      choosing = null;
    }
  });
}
