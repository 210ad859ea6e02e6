// A logger that keeps what was said, for asserting on the lines a user would read.
import type { Logger } from "../../hub/src/log.js";

export interface Said {
  level: string;
  msg: string;
  /** the structured fields logged with the line */
  fields?: Record<string, unknown>;
}

export function fakeLog(): { log: Logger; said: Said[]; text: (level?: string) => string } {
  const said: Said[] = [];
  const at =
    (level: string) =>
    (a: unknown, b?: unknown): void => {
      said.push({
        level,
        msg: typeof a === "string" ? a : String(b ?? ""),
        ...(typeof a === "object" && a ? { fields: a as Record<string, unknown> } : {}),
      });
    };
  const log = {
    trace: at("trace"),
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    fatal: at("fatal"),
    child: () => log,
  } as unknown as Logger;
  const text = (level?: string) =>
    said
      .filter((s) => !level || s.level === level)
      .map((s) => s.msg)
      .join("\n");
  return { log, said, text };
}
