// Structured logs (pino). Readable lines on a terminal, JSON lines otherwise.
import { type Logger, pino } from "pino";
import pretty from "pino-pretty";

export type { Logger };

export interface LogOptions {
  level?: string;
  /** force readable output; default: when stderr is a TTY */
  pretty?: boolean;
  /** where JSON lines go; default stderr */
  destination?: NodeJS.WritableStream;
}

export function createLogger(opts: LogOptions = {}): Logger {
  const level = opts.level ?? "info";
  const readable = opts.pretty ?? Boolean(process.stderr.isTTY);
  if (readable) {
    return pino({ level }, pretty({ colorize: true, destination: 2, sync: true, ignore: "pid,hostname" }));
  }
  return pino({ level, base: undefined }, opts.destination ?? pino.destination({ dest: 2, sync: true }));
}

/** A logger that says nothing: for embedding the hub in tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

/**
 * Logs a refusal once per key per window, then counts repeats quietly, so a client
 * flooding bad messages cannot flood the log.
 */
export class OncePerKey {
  private seen = new Map<string, { at: number; repeats: number }>();
  constructor(
    private readonly log: Logger,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 10_000,
  ) {}

  warn(key: string, fields: object, msg: string): void {
    const now = Date.now();
    const s = this.seen.get(key);
    if (s && now - s.at < this.windowMs) {
      s.repeats++;
      return;
    }
    if (this.seen.size >= this.maxKeys) this.seen.clear();
    this.seen.set(key, { at: now, repeats: 0 });
    this.log.warn({ ...fields, ...(s?.repeats ? { repeatsSinceLast: s.repeats } : {}) }, msg);
  }
}
