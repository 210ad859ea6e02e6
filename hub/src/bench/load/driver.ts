// The bench side of the load worker: start it with gun logins, run it at a rate, collect its figures.
import { Worker } from "node:worker_threads";
import type { FromWorker, RunRequest, RunResult, WorkerSetup } from "./protocol.js";

export class LoadWorker {
  private waiting: { resolve: (m: FromWorker) => void; reject: (e: Error) => void } | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (m: FromWorker) => {
      const w = this.waiting;
      this.waiting = null;
      if (m.type === "error") w?.reject(new Error(m.message));
      else w?.resolve(m);
    });
    worker.on("error", (e) => {
      const w = this.waiting;
      this.waiting = null;
      w?.reject(e);
    });
  }

  private next(): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** Starts the worker; resolves once every gun is connected (and subscribed to its cues, with probes). */
  static async start(setup: WorkerSetup): Promise<LoadWorker> {
    const w = new LoadWorker(new Worker(new URL("./aim-worker.js", import.meta.url), { workerData: setup }));
    const m = await w.next();
    if (m.type !== "ready") throw new Error(`load worker: unexpected ${m.type}`);
    return w;
  }

  async run(r: Omit<RunRequest, "type">): Promise<RunResult> {
    const done = this.next();
    this.worker.postMessage({ type: "run", ...r });
    const m = await done;
    if (m.type !== "done") throw new Error(`load worker: unexpected ${m.type}`);
    return m;
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    this.worker.postMessage({ type: "close" });
    const t = setTimeout(() => void this.worker.terminate(), 2000);
    await exited;
    clearTimeout(t);
  }
}
