// The Espruino console protocol over a serial port: a line starting with DLE (0x10) is run without
// echo; answers are printed between SOH and STX markers so they stand out from console chatter.
import type { SerialPortStream } from "@serialport/stream";

export class FlashError extends Error {
  constructor(
    readonly code: "no-answer" | "board-error" | "verify" | "port" | "config",
    message: string,
  ) {
    super(message);
    this.name = "FlashError";
  }
}

const SOH = "\x01";
const STX = "\x02";

export class EspruinoConsole {
  private buf = "";
  private waiter: (() => void) | undefined;

  constructor(
    private readonly port: SerialPortStream,
    private readonly timeoutMs = 3000,
  ) {
    port.on("data", (d: Buffer) => {
      this.buf += d.toString("latin1");
      this.waiter?.();
    });
  }

  private send(line: string): Promise<void> {
    return new Promise((res, rej) => {
      this.port.write(Buffer.from(line, "latin1"), (e) => (e ? rej(new FlashError("port", e.message)) : res()));
    });
  }

  /** Run `code` on the board and return the JSON value of `expr` evaluated after it. */
  async call<T>(code: string, expr = "0"): Promise<T> {
    this.buf = "";
    await this.send(`\x10${code};print("\\x01"+JSON.stringify(${expr})+"\\x02")\n`);
    const end = Date.now() + this.timeoutMs;
    for (;;) {
      const a = this.buf.indexOf(SOH);
      const b = a >= 0 ? this.buf.indexOf(STX, a) : -1;
      if (b > a) return JSON.parse(this.buf.slice(a + 1, b)) as T;
      const err = /Uncaught [^\r\n]*/.exec(this.buf);
      if (err) throw new FlashError("board-error", `the board said: ${err[0]}`);
      const left = end - Date.now();
      if (left <= 0) {
        throw new FlashError(
          "no-answer",
          "no answer from an Espruino console: check the port, that Espruino is flashed on the board, and the baud rate",
        );
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiter = () => {
          clearTimeout(t);
          r();
        };
      });
      this.waiter = undefined;
    }
  }

  /** Get the console back from a gun on its serial link, clear a half-typed line and turn echo off. */
  async hello(): Promise<{ version: string; board: string }> {
    // a serial-link gun (hardware/SERIAL.md) hands the console back on this line; a console just
    // prints a syntax error, which the Ctrl-C and the next call clear
    await this.send('\nrepl {"v":1}\n');
    await new Promise((r) => setTimeout(r, 100));
    await this.send("\x03");
    await new Promise((r) => setTimeout(r, 50));
    return this.call("echo(0)", "{version:process.env.VERSION,board:process.env.BOARD}");
  }

  /** Start the saved code (.bootcde) as at power-on. */
  async restart(): Promise<void> {
    await this.send("\x10load()\n");
  }
}
