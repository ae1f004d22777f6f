/** A small seeded PRNG (mulberry32): the sandbox's data follows from SANDBOX_SEED alone, never Math.random. */

/** Mixes numbers into one 32-bit seed, so (seed, stream, index) gives independent sequences. */
export function mixSeed(...parts: number[]): number {
  let hash = 0x9e3779b9;
  for (const part of parts) {
    hash = Math.imul(hash ^ (part >>> 0), 0x85ebca6b);
    hash = Math.imul(hash ^ Math.floor(part / 0x1_0000_0000), 0xc2b2ae35);
    hash ^= hash >>> 16;
  }
  return hash >>> 0;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  }

  /** Whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight from a table built with `cumulativeWeights`. */
  pickWeighted<T>(items: readonly T[], cumulative: readonly number[]): T {
    const target = this.next() * cumulative[cumulative.length - 1]!;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return items[low]!;
  }

  digits(count: number): string {
    let text = '';
    for (let i = 0; i < count; i++) text += Math.floor(this.next() * 10);
    return text;
  }

  alphanumerics(count: number): string {
    let text = '';
    for (let i = 0; i < count; i++)
      text += ALPHANUMERIC[Math.floor(this.next() * ALPHANUMERIC.length)];
    return text;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }
}

export function cumulativeWeights(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((weight) => (sum += weight));
}
