// The clock every rule reads: injected so tests can pin and move time.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string | number = Date.now()) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(at: Date | string | number): void {
    this.#ms = new Date(at).getTime();
  }
}
