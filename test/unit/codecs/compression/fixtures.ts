/**
 * Compressed fixtures made by the reference command-line tools from
 * `cliInput()` (LZ4 CLI v1.9.4, Zstandard CLI v1.5.4), so the pure-TS LZ4
 * decoder and the fzstd path are checked against independent encoders:
 *
 *   lz4 -BD -BX --content-size -B4 in linked.lz4   (linked blocks, block checksums, content size)
 *   lz4 -B5 in b256.lz4                            (256 KiB blocks, content checksum)
 *   zstd -3 --no-content-size in -o nocs.zst       (streamed frame: window descriptor, no size)
 *   zstd -19 in -o cs.zst                          (single-segment frame with content size)
 */

/** 122400 bytes of repetitive text: 2400 rows of 51 bytes. */
export function cliInput(): Buffer {
  const rows: string[] = [];
  for (let i = 0; i < 2400; i++) rows.push(`row ${i % 7}: the quick brown fox jumps over the lazy dog\n`);
  return Buffer.from(rows.join(''));
}

function b64(s: string): Buffer {
  return Buffer.from(s, 'base64');
}

export const LZ4_LINKED_BLOCK_CHECKSUMS = b64(
  'BCJNGFxAIN4BAAAAAAD3XAEAAPEWcm93IDA6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3Zlch8AkGxhenkgZG9nCjMAHzEz' +
    'AB8fMjMAHx8zMwAfHzQzAB8fNTMAHx82MwAfD2UB////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////flBkb2cKcjEHn03oAAAA' +
    'DzP/////////////////////////////////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '5lAgZG9nCpANI5MAAAAA/Xif5g==',
);

export const LZ4_256K_BLOCKS = b64(
  'BCJNGGRQCDsCAADxFnJvdyAwOiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIfAJBsYXp5IGRvZwozAB8xMwAfHzIzAB8f' +
    'MzMAHx80MwAfHzUzAB8fNjMAHw9lAf//////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '////////////////////////////////////////////////////////////////////////////////////////////////////' +
    '//////////////////////////////////////////////////////////////////99UCBkb2cKAAAAAP14n+Y=',
);

export const ZSTD_NO_CONTENT_SIZE = b64(
  'KLUv/QQ4rTIAGplUDxtgTZIx4yZHME6ODI0YGAAArEhERHjg6YhBgAMCAeYA5gCccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLK' +
    'XU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zl' +
    'lLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65' +
    'yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLucxoEoFgwQBAaFCgEWFAwSiAHBAYOGBGMCUWA0OBCFgKFgAIKGB4PhQIQB' +
    'IONAFAG5yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUu' +
    'p9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLK' +
    'XU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zllLuccpdT7nLKXU65yyl3OeUup9zl' +
    'lLuccpdT7nLK3eWUu5xyl1PucspdTrnLKXc55S6n3OWUu5xyl1PucspdTrnLKXc55S6n3OWUu5xyl1PucspdTrnLKXc55S6n3OWU' +
    'u5xyl1PucspdTrnLKXc55S6n3OWUu5xyl1PucspdTrnLKXc55S6n3OWUu5xyl1PucspdTrnLKXc55S6n3OWUu5xyl1PucspdTrnL' +
    'KXc55S6n3OWUu5xyl1PucspdTrnLKXc55S6n3OWUu5xyl1PucspdTrnLKXc55S6n3OWUu5xyl1PucspdTrnLKXc55S6n3OWUu5xy' +
    'l1PucspdTrnLKXc55S6nLqfc5ZS7nHKXU+5yyl1OucspdznlLqfc5ZS7nHKXU+5yyl1OucspdznlLqfc5ZS7nHKXU+5yyl1Oucsp' +
    'dznlLqfc5ZS7nHKXU+5yyl1OucspdznlLqfc5ZS7nHKXU+5yyl1OucspdznlLqfc5ZS7nHKXU+5yyl1OucspdznlLqfc5ZS7nHKX' +
    'U+5yyl1OucspdznlLqfc5ZS7nHKXU+5yyl1OucspdznlLqfc5ZS7nHKXU+5yyl1OucspdznlLqfc5ZS7nHKXU+5yyl1Oucspdznl' +
    'Lqfc5ZS7nHKXU+5yyl1Oucspd4lgqBSA//qlB+O/ARQgAAH+/18A/wH7////////////////////////////////////////////' +
    '//////////////////////////////////////9//v//////////////////////////////////////////////////////////' +
    '/////////////////////////+z/////////////////////////////////////////////////////////////////////////' +
    '///////////Z////////////////////////////////////////////////////////////////////////////////////s///' +
    '/////////////////////////////////////////////////////////////////////////////////2f/////////////////' +
    '///////////////////////////////////////////////////////////////////P/v//////////////////////////////' +
    '////////////////////////////////////////////////////n/3/////////////////////////////////////////////' +
    '/////////////////////////////////////z/7////////////////////////////////////////////////////////////' +
    '//////////////////////9/9v////////////////////////////////9mzLb/zP5X/P/3H6FGsd4=',
);

export const ZSTD_WITH_CONTENT_SIZE = b64(
  'KLUv/aQg3gEAlQIAhANyb3cgMDogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVybGF6eSBkb2cKcm93IDEyMzQ1NggAuNxo' +
    'K4eBeYOIDSIZRDeI2K0KVdGqJ6FGsd4=',
);
