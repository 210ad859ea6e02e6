// `cng check`: the builder's check of a first gun on its USB cable, before it goes into a blaster (hub/src/check).
import type { Command } from "commander";
import { SerialPort } from "serialport";
import { checkSnippet, describeCheck, runCheck } from "../../check/index.js";
import { listPorts } from "../../flash/flash.js";
import { boardNames, loadBoard } from "../../sim/espruino/index.js";

interface CheckOpts {
  board: string;
  port?: string;
  baud?: number;
  print: boolean;
}

const int = (v: string) => Number.parseInt(v, 10);

export function registerCheck(program: Command): void {
  program
    .command("check")
    .description(
      "check a flashed gun on its USB cable: the IMU's id and read time, the battery's volts, the LED's colours and " +
        "the buzzer's tones in turn, the firmware's work per IMU sample; then it restarts",
    )
    .requiredOption("-b, --board <board>", `board profile (${boardNames().join(", ")})`)
    .option("-p, --port <path>", "serial port, e.g. /dev/ttyUSB0 (without it: list the ports)")
    .option("--baud <n>", "serial baud rate (default: the board's, 115200)", int)
    .option(
      "--print",
      "print the check's JavaScript, to paste into the Espruino Web IDE's console (a Puck.js, started with its button held)",
      false,
    )
    .action(async (o: CheckOpts) => {
      try {
        process.exitCode = await run(o);
      } catch (e) {
        process.stderr.write(`cng check: ${(e as Error).message}\n`);
        process.exitCode = 1;
      }
    });
}

async function run(o: CheckOpts): Promise<number> {
  const board = loadBoard(o.board);
  if (o.print) {
    // (on stderr: stdout is the snippet alone, to paste)
    if (board.con === "Bluetooth")
      process.stderr.write(
        `the ${board.name} gives its console only when it starts with its button held: take the cell out and put it ` +
          "back with the button held until all three LEDs light, let go, connect the Espruino Web IDE, then paste " +
          "this into its console (hardware/PUCK.md)\n",
      );
    process.stdout.write(`${checkSnippet(board)}\n`);
    return 0;
  }
  if (!o.port) {
    const ports = await listPorts();
    if (!ports.length) console.log("no serial ports found: plug the board in (and check the USB cable carries data)");
    else {
      console.log("serial ports (pass one with --port):");
      for (const p of ports) console.log(`  ${p.path}${p.label ? `  ${p.label}` : ""}`);
    }
    return 0;
  }
  const port = new SerialPort({ path: o.port, baudRate: o.baud ?? board.baud ?? 115200, autoOpen: false });
  await new Promise<void>((resolve, reject) =>
    port.open((e) => (e ? reject(new Error(`cannot open ${o.port}: ${e.message}`)) : resolve())),
  );
  try {
    console.log(`checking the ${board.name} on ${o.port}: watch the LED and listen to the buzzer`);
    const r = await runCheck(
      {
        send: (t) => void port.write(Buffer.from(t, "latin1")),
        onData: (fn) => port.on("data", (d: Buffer) => fn(d.toString("latin1"))),
      },
      board,
      (l) => console.log(`  ${l}`),
    );
    const more = describeCheck(r, board).slice(r.lines.length);
    for (const l of more) console.log(`  ${l}`);
    if (!r.lines.length) {
      console.log("no answer from an Espruino console: is Espruino flashed, and the baud rate right?");
      return 1;
    }
    return r.done ? 0 : 1;
  } finally {
    await new Promise<void>((resolve) => port.close(() => resolve()));
  }
}
