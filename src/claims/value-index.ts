import type { SourceValue } from './sources.js';

/** One reading of a value (exact, or as shown) and the value it belongs to. */
interface Entry<T> {
  magnitude: number;
  source: T;
}

/**
 * Values indexed by magnitude, so a figure finds the few within its rounding by binary search
 * instead of scanning thousands of derived values (a text of 3,000 figures stays linear).
 * Values added after the last sort wait in a small unsorted tail, merged when it grows.
 */
export class ValueIndex<T extends SourceValue> {
  private sorted: Array<Entry<T>> = [];
  private tail: Array<Entry<T>> = [];
  private readonly seen = new Set<string>();

  constructor(values: readonly T[] = []) {
    this.add(values);
  }

  /** Adds values; a value equal to one already held (same kind, same reading) is kept once. */
  add(values: readonly T[]): void {
    for (const source of values) {
      if (typeof source.value !== 'number') continue;
      for (const reading of source.shown !== undefined ? [source.value, source.shown] : [source.value]) {
        const key = `${source.kind}|${reading.toPrecision(12)}`;
        if (this.seen.has(key) || !Number.isFinite(reading)) continue;
        this.seen.add(key);
        this.tail.push({ magnitude: Math.abs(reading), source });
      }
    }
    if (this.tail.length > 256) this.merge();
  }

  /** Sorts the tail and merges it into the sorted run in one linear pass. */
  private merge(): void {
    if (this.tail.length === 0) return;
    const tail = this.tail.sort((a, b) => a.magnitude - b.magnitude);
    const merged: Array<Entry<T>> = new Array<Entry<T>>(this.sorted.length + tail.length);
    let left = 0;
    let right = 0;
    for (let at = 0; at < merged.length; at += 1) {
      const takeLeft =
        right >= tail.length || (left < this.sorted.length && this.sorted[left]!.magnitude <= tail[right]!.magnitude);
      merged[at] = takeLeft ? this.sorted[left++]! : tail[right++]!;
    }
    this.sorted = merged;
    this.tail = [];
  }

  /** The values whose magnitude lies in [low, high], each once. */
  within(low: number, high: number): T[] {
    const found = new Set<T>();
    let start = 0;
    let end = this.sorted.length;
    while (start < end) {
      const middle = (start + end) >> 1;
      if (this.sorted[middle]!.magnitude < low) start = middle + 1;
      else end = middle;
    }
    for (let at = start; at < this.sorted.length && this.sorted[at]!.magnitude <= high; at += 1)
      found.add(this.sorted[at]!.source);
    for (const entry of this.tail) if (entry.magnitude >= low && entry.magnitude <= high) found.add(entry.source);
    return [...found];
  }

  /** An index holding the same values, that can grow without changing this one. */
  copy(): ValueIndex<T> {
    const copy = new ValueIndex<T>();
    this.merge();
    copy.sorted = this.sorted;
    for (const key of this.seen) copy.seen.add(key);
    return copy;
  }

  get size(): number {
    return this.sorted.length + this.tail.length;
  }
}
