// Espruino's `Storage` for the vm's board: files in a Map, written and read as a board's flash has them.
import type { BoardProfile } from "../../boards/profile.js";

/** Espruino's writeJSON / E.toJS notation for plain data: identifier keys unquoted. */
function toJs(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(toJs).join(",")}]`;
  if (v && typeof v === "object") {
    const keys = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{${keys.map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}:${toJs(x)}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "undefined";
}

export interface VmStorage {
  /** the files by name */
  files: Map<string, string>;
  /** the module the firmware's require("Storage") gets */
  module: Record<string, unknown>;
}

/** The flash of `board` holding `gun.json` = `config` (an object, its text, or null/undefined for none). */
export function vmStorage(board: BoardProfile, config: object | string | null | undefined): VmStorage {
  const files = new Map<string, string>();
  if (config !== null && config !== undefined) {
    files.set("gun.json", typeof config === "string" ? config : JSON.stringify(config));
  }
  const module = {
    read: (n: string) => files.get(n),
    readJSON(n: string, noExceptions: boolean) {
      const s = files.get(n);
      if (s === undefined) return undefined;
      try {
        return JSON.parse(s);
      } catch (e) {
        if (noExceptions) return undefined;
        throw e;
      }
    },
    // with an offset, into a file made by a first write that gave its size (unwritten bytes read 0xFF, as erased flash)
    write: (n: string, d: string, offset?: number, size?: number) => {
      const data = String(d);
      if (offset === undefined) files.set(n, data);
      else {
        const cur = size !== undefined ? "\xff".repeat(size) : files.get(n);
        if (cur === undefined || offset + data.length > cur.length) throw new Error(`Storage: ${n} is not that large`);
        files.set(n, cur.slice(0, offset) + data + cur.slice(offset + data.length));
      }
      return true;
    },
    getStats: () => {
      let used = 0;
      for (const v of files.values()) used += v.length + 32;
      const total = board.storage ?? 262144;
      return { totalBytes: total, freeBytes: Math.max(0, total - used), trashBytes: 0, fileBytes: used };
    },
    // as Espruino does: JS notation, keys unquoted where they can be ({id:"g1"}), not JSON
    writeJSON: (n: string, d: unknown) => {
      files.set(n, toJs(d));
      return true;
    },
    erase: (n: string) => files.delete(n),
    list: () => [...files.keys()],
  };
  return { files, module };
}
