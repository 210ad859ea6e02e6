// Events as Espruino's objects give them (`on`), for the vm's sockets and serial ports.

export class Emitter {
  private readonly h = new Map<string, ((...a: unknown[]) => void)[]>();
  on(ev: string, fn: (...a: unknown[]) => void): void {
    this.h.set(ev, [...(this.h.get(ev) ?? []), fn]);
  }
  emit(ev: string, ...a: unknown[]): void {
    for (const fn of this.h.get(ev) ?? []) fn(...a);
  }
}
