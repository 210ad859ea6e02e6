// Attack: reading the hub's secrets off the disk. The data folder (PIN, seat tokens, gun key hashes) is private to
// the hub's user: made 0700 with its database files 0600, and an existing folder or file others can read is
// tightened, with a warning.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDir, testHub } from "../fakes/hub.js";
import { fakeLog } from "../fakes/log.js";

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

it("a new data folder is 0700 and every file in it 0600", async () => {
  const t = tempDir("cng-files-");
  try {
    const data = join(t.dir, "new", "data");
    const hub = await testHub({ data });
    expect(mode(data)).toBe("700");
    const files = readdirSync(data);
    expect(files.some((f) => f.endsWith(".sqlite"))).toBe(true);
    for (const f of files) expect(mode(join(data, f)), f).toBe("600");
    await hub.stop();
  } finally {
    t.remove();
  }
});

it("an existing folder and database others can read are tightened, and the hub says so", async () => {
  const t = tempDir("cng-files-");
  try {
    const data = join(t.dir, "data");
    mkdirSync(data);
    chmodSync(data, 0o755);
    // a database from before, world-readable
    const first = await testHub({ data });
    await first.stop();
    for (const f of readdirSync(data)) chmodSync(join(data, f), 0o644);
    chmodSync(data, 0o755);
    const said = fakeLog();
    const hub = await testHub({ data, log: said.log });
    expect(mode(data)).toBe("700");
    for (const f of readdirSync(data)) expect(mode(join(data, f)), f).toBe("600");
    const warned = said.said.filter((s) => s.level === "warn" && /readable by others/.test(s.msg)).map((s) => s.msg);
    expect(warned.some((m) => m.startsWith(data))).toBe(true);
    expect(warned.some((m) => m.includes(".sqlite"))).toBe(true);
    await hub.stop();
    // a stray file of the user's is not the hub's business
    writeFileSync(join(data, "notes.txt"), "x");
    expect(existsSync(join(data, "notes.txt"))).toBe(true);
  } finally {
    t.remove();
  }
});
