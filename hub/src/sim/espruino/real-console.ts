// Espruino's console as the real interpreter prints it, into lines: without the REPL's prompt and its line-clearing
// escapes; an exception the firmware let escape ("Uncaught …") is also an error.

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g");

function cleanLine(s: string): string {
  return s.replace(ANSI, "").replace(/\r/g, "").replace(/^>+/, "").trimEnd();
}

export class ConsoleLines {
  private line = "";

  constructor(
    readonly lines: string[],
    readonly errors: unknown[],
    private readonly onLine?: (line: string) => void,
  ) {}

  /** Console text, in whatever pieces it comes. */
  add(t: string): void {
    this.line += t;
    const parts = this.line.split("\n");
    this.line = parts.pop()!;
    for (const raw of parts) {
      const l = cleanLine(raw);
      if (!l) continue;
      this.lines.push(l);
      this.onLine?.(l);
      if (l.startsWith("Uncaught ")) this.errors.push(l);
    }
  }
}
