/** The source of "now" for every rule that expires something; tests substitute their own. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
