/**
 * An answer that waits for other work at most so long: the work itself goes on (its outcome, if it comes
 * later, is handled, so it is never an unhandled rejection).
 */
export function withinTime<T>(work: Promise<T>, ms: number, timedOut: Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
