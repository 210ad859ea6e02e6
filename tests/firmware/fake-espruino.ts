// A serialport MockBinding that answers like an Espruino console: lines are run in a small sandbox
// with Storage, print, echo and process.env, as a board would run them.
import vm from "node:vm";
import { MockBinding } from "@serialport/binding-mock";

export interface FakeBoard {
  storage: Map<string, string>;
  /** every line the board ran */
  lines: string[];
  loads: number;
  binding: typeof MockBinding;
}

export function fakeEspruino(path: string, answer = true): FakeBoard {
  MockBinding.reset();
  MockBinding.createPort(path, { echo: false, record: false });
  const board: FakeBoard = { storage: new Map(), lines: [], loads: 0, binding: MockBinding };
  if (!answer) return board;
  let out = "";
  const ctx = vm.createContext({
    print: (...a: unknown[]) => {
      out += `${a.join(" ")}\r\n`;
    },
    echo: () => {},
    load: () => {
      board.loads++;
    },
    process: { env: { VERSION: "2v25", BOARD: "ESP32" } },
    require: (m: string) => {
      if (m !== "Storage") throw new Error(`Module ${m} not found`);
      return {
        write(name: string, data: string, off?: number, size?: number) {
          // a chunked write: the first call (offset 0) says the whole size
          if (size !== undefined && data.length > size) return false;
          const cur = off ? (board.storage.get(name) ?? "") : "";
          board.storage.set(name, cur.slice(0, off ?? 0) + data);
          return true;
        },
        read: (name: string) => board.storage.get(name),
      };
    },
  });
  const open = MockBinding.open.bind(MockBinding);
  let line = "";
  const binding = {
    ...MockBinding,
    list: MockBinding.list.bind(MockBinding),
    async open(opts: Parameters<typeof MockBinding.open>[0]) {
      const p = await open(opts);
      const write = p.write.bind(p);
      p.write = async (buf: Buffer) => {
        await write(buf);
        for (const ch of buf.toString("latin1")) {
          if (ch === "\x03") line = "";
          else if (ch === "\n") {
            const code = line.startsWith("\x10") ? line.slice(1) : line;
            line = "";
            board.lines.push(code);
            try {
              vm.runInContext(code, ctx);
            } catch (e) {
              out += `Uncaught ${e instanceof Error ? e.message : String(e)}\r\n`;
            }
            out += ">";
            const o = out;
            out = "";
            setImmediate(() => p.isOpen && p.emitData(Buffer.from(o, "latin1")));
          } else line += ch;
        }
      };
      return p;
    },
  };
  board.binding = binding as unknown as typeof MockBinding;
  return board;
}
