import { describe, expect, it } from 'vitest';
import { crc32, crc32c, crc32cReference } from '../../../../codecs/crc.js';

describe('checksums', () => {
  it('match the standard check values for "123456789"', () => {
    const check = Buffer.from('123456789');
    expect(crc32c(check)).toBe(0xe3069283);
    expect(crc32(check)).toBe(0xcbf43926);
  });

  it('fast CRC-32C agrees with crc-32 at every alignment and length', () => {
    const data = Buffer.allocUnsafe(4096 + 16);
    for (let i = 0; i < data.length; i++) data[i] = (i * 131 + (i >> 5)) & 0xff;
    for (const start of [0, 1, 2, 3, 5, 7]) {
      for (const len of [0, 1, 15, 63, 64, 65, 100, 1000, 4096]) {
        const view = data.subarray(start, start + len);
        expect(crc32c(view)).toBe(crc32cReference(view));
        expect(crc32c(data, start, start + len)).toBe(crc32cReference(view));
      }
    }
  });
});
