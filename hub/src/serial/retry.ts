// A USB device the hub can live without (a serial gun, the table box): the first failure of its port is news
// (a warning), the retries after it are not (debug lines); it is tried again every `retryMs` until it answers.
import type { Logger } from "../log.js";

export class PortRetry {
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;

  /** `retryMs` 0 = never try again; `again` reopens the port. */
  constructor(
    private readonly retryMs: number,
    private readonly log: Logger,
    private readonly again: () => void,
  ) {}

  /** Logs a failure (`tail` is added to the warning only) and schedules the next try. */
  failed(fields: Record<string, unknown>, what: string, tail = ""): void {
    this.failures++;
    const every = this.retryMs > 0 ? `; trying again every ${Math.round(this.retryMs / 1000)} s` : "";
    if (this.failures === 1) this.log.warn(fields, `${what}${tail}${every}`);
    else this.log.debug({ ...fields, failures: this.failures }, what);
    if (this.retryMs > 0 && this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.again();
      }, this.retryMs);
      this.timer.unref();
    }
  }

  /** The port answers again; true when it had failed before (worth a "back" line). */
  ok(): boolean {
    const was = this.failures > 0;
    this.failures = 0;
    return was;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
