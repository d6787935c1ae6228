// The clock the app reads "now" from: the system's, or a test's (ctx.services.clock).
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
