import { randomBytes, randomUUID } from 'node:crypto';

/** Randomness is injectable so tests and simulations can be made repeatable. */
export interface RandomSource {
  uuid(): string;
  bytes(size: number): Buffer;
  /** A float in [0, 1). */
  float(): number;
}

export const cryptoRandom: RandomSource = {
  uuid: () => randomUUID(),
  bytes: (size) => randomBytes(size),
  float: () => randomBytes(4).readUInt32BE(0) / 2 ** 32,
};

/** A deterministic source (mulberry32) for tests and benchmarks. */
export function seededRandom(seed = 1): RandomSource {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const bytes = (size: number) => {
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i++) out[i] = Math.floor(next() * 256);
    return out;
  };
  return {
    float: next,
    bytes,
    uuid: () => {
      const b = bytes(16);
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
  };
}
