/**
 * CRC-32C in WebAssembly: codecs/crc32c.wat's scalar slice-by-16 loop for
 * short inputs and tails, and its SIMD loop (sixteen interleaved streams,
 * table lookups by i8x16.swizzle) for every whole 1 KiB block
 * (bench/results/crc.md has the measurements that chose them). No native
 * addon: the module is embedded below as base64, assembled from the
 * checked-in .wat by scripts/wat-assemble.ts, and
 * test/unit/codecs/crc-wasm.test.ts fails if the two ever differ. Where
 * relaxed SIMD compiles (Node 24, Bun and Deno here), the same loop
 * assembled with `i8x16.relaxed_swizzle` runs instead. A runtime whose
 * WebAssembly lacks SIMD cannot compile either module; it runs
 * codecs/crc32c-scalar.wat's slice-by-16 loop instead (still faster than the
 * JS loop), embedded and checked the same way.
 *
 * The input is copied into the module's memory in 64 KiB chunks (one memcpy,
 * a small fraction of the table work), so memory stays at two pages.
 */
import { instantiateEmbedded, type WasmCompile } from './wasm-module.js';

/** Base64 of `npx tsx scripts/wat-assemble.ts codecs/crc32c.wat`. */
export const CRC32C_WASM_BASE64 =
  'AGFzbQEAAAABDwJgA39/fwF/YAN/f38BfwMDAgABBQMBAAIHHAMGdXBkYXRlAAAGYmxvY2tzAAEGbWVtb3J5AgAKkBsC5gIGAX8BfwF/AX8BfwF/IAEgAmohAyABIAJBcHFqIQQCQANAIAEgBE8NASABKAIEIQYgASgCCCEHIAEoAgwhCCAGQQJ0QfwHcSgCgFggBkEGdkH8B3EoAoBQcyAGQQ52QfwHcSgCgEggBkEWdkH8B3EoAoBAc3MgB0ECdEH8B3EoAoA4IAdBBnZB/AdxKAKAMHMgB0EOdkH8B3EoAoAoIAdBFnZB/AdxKAKAIHNzcyAIQQJ0QfwHcSgCgBggCEEGdkH8B3EoAoAQcyAIQQ52QfwHcSgCgAggCEEWdkH8B3EoAgBzc3MgASgCACAAcyEFIAVBAnRB/AdxKAKAeCAFQQZ2QfwHcSgCgHBzIAVBDnZB/AdxKAKAaCAFQRZ2QfwHcSgCgGBzc3MhACABQRBqIQEMAAsLAkADQCABIANPDQEgACABLQAAc0H/AXFBAnQoAgAgAEEIdnMhACABQQFqIQEMAAsLIAALpRg5AX8BfwF/AX8BfwF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7QQ/9DyEMQQD9DyAA/RcAIQhBAP0PIABBCHb9FwAhCUEA/Q8gAEEQdv0XACEKQQD9DyAAQRh2/RcAIQtBAP0ABICAASEQQQD9AATAgAEhFEEA/QAEkIABIRFBAP0ABNCAASEVQQD9AASggAEhEkEA/QAE4IABIRZBAP0ABLCAASETQQD9AATwgAEhFwJAA0AgASEDIAFBwABqIQQDQCAD/QAEACEcIAP9AARAIR0gA/0ABIABIR4gA/0ABMABIR8gA/0ABIACISAgA/0ABMACISEgA/0ABIADISIgA/0ABMADISMgA/0ABIAEISQgA/0ABMAEISUgA/0ABIAFISYgA/0ABMAFIScgA/0ABIAGISggA/0ABMAGISkgA/0ABIAHISogA/0ABMAHISsgHCAk/Q0AEAERAhIDEwQUBRUGFgcXISwgHCAk/Q0IGAkZChoLGwwcDR0OHg8fIS0gHSAl/Q0AEAERAhIDEwQUBRUGFgcXIS4gHSAl/Q0IGAkZChoLGwwcDR0OHg8fIS8gHiAm/Q0AEAERAhIDEwQUBRUGFgcXITAgHiAm/Q0IGAkZChoLGwwcDR0OHg8fITEgHyAn/Q0AEAERAhIDEwQUBRUGFgcXITIgHyAn/Q0IGAkZChoLGwwcDR0OHg8fITMgICAo/Q0AEAERAhIDEwQUBRUGFgcXITQgICAo/Q0IGAkZChoLGwwcDR0OHg8fITUgISAp/Q0AEAERAhIDEwQUBRUGFgcXITYgISAp/Q0IGAkZChoLGwwcDR0OHg8fITcgIiAq/Q0AEAERAhIDEwQUBRUGFgcXITggIiAq/Q0IGAkZChoLGwwcDR0OHg8fITkgIyAr/Q0AEAERAhIDEwQUBRUGFgcXITogIyAr/Q0IGAkZChoLGwwcDR0OHg8fITsgLCA0/Q0AEAERAhIDEwQUBRUGFgcXIRwgLCA0/Q0IGAkZChoLGwwcDR0OHg8fIR0gLSA1/Q0AEAERAhIDEwQUBRUGFgcXIR4gLSA1/Q0IGAkZChoLGwwcDR0OHg8fIR8gLiA2/Q0AEAERAhIDEwQUBRUGFgcXISAgLiA2/Q0IGAkZChoLGwwcDR0OHg8fISEgLyA3/Q0AEAERAhIDEwQUBRUGFgcXISIgLyA3/Q0IGAkZChoLGwwcDR0OHg8fISMgMCA4/Q0AEAERAhIDEwQUBRUGFgcXISQgMCA4/Q0IGAkZChoLGwwcDR0OHg8fISUgMSA5/Q0AEAERAhIDEwQUBRUGFgcXISYgMSA5/Q0IGAkZChoLGwwcDR0OHg8fIScgMiA6/Q0AEAERAhIDEwQUBRUGFgcXISggMiA6/Q0IGAkZChoLGwwcDR0OHg8fISkgMyA7/Q0AEAERAhIDEwQUBRUGFgcXISogMyA7/Q0IGAkZChoLGwwcDR0OHg8fISsgHCAk/Q0AEAERAhIDEwQUBRUGFgcXISwgHCAk/Q0IGAkZChoLGwwcDR0OHg8fIS0gHSAl/Q0AEAERAhIDEwQUBRUGFgcXIS4gHSAl/Q0IGAkZChoLGwwcDR0OHg8fIS8gHiAm/Q0AEAERAhIDEwQUBRUGFgcXITAgHiAm/Q0IGAkZChoLGwwcDR0OHg8fITEgHyAn/Q0AEAERAhIDEwQUBRUGFgcXITIgHyAn/Q0IGAkZChoLGwwcDR0OHg8fITMgICAo/Q0AEAERAhIDEwQUBRUGFgcXITQgICAo/Q0IGAkZChoLGwwcDR0OHg8fITUgISAp/Q0AEAERAhIDEwQUBRUGFgcXITYgISAp/Q0IGAkZChoLGwwcDR0OHg8fITcgIiAq/Q0AEAERAhIDEwQUBRUGFgcXITggIiAq/Q0IGAkZChoLGwwcDR0OHg8fITkgIyAr/Q0AEAERAhIDEwQUBRUGFgcXITogIyAr/Q0IGAkZChoLGwwcDR0OHg8fITsgLCA0/Q0AEAERAhIDEwQUBRUGFgcXIRwgLCA0/Q0IGAkZChoLGwwcDR0OHg8fIR0gLSA1/Q0AEAERAhIDEwQUBRUGFgcXIR4gLSA1/Q0IGAkZChoLGwwcDR0OHg8fIR8gLiA2/Q0AEAERAhIDEwQUBRUGFgcXISAgLiA2/Q0IGAkZChoLGwwcDR0OHg8fISEgLyA3/Q0AEAERAhIDEwQUBRUGFgcXISIgLyA3/Q0IGAkZChoLGwwcDR0OHg8fISMgMCA4/Q0AEAERAhIDEwQUBRUGFgcXISQgMCA4/Q0IGAkZChoLGwwcDR0OHg8fISUgMSA5/Q0AEAERAhIDEwQUBRUGFgcXISYgMSA5/Q0IGAkZChoLGwwcDR0OHg8fIScgMiA6/Q0AEAERAhIDEwQUBRUGFgcXISggMiA6/Q0IGAkZChoLGwwcDR0OHg8fISkgMyA7/Q0AEAERAhIDEwQUBRUGFgcXISogMyA7/Q0IGAkZChoLGwwcDR0OHg8fIStBACAc/QsEgKUBQQAgHf0LBJClAUEAIB79CwSgpQFBACAf/QsEsKUBQQAgIP0LBMClAUEAICH9CwTQpQFBACAi/QsE4KUBQQAgI/0LBPClAUEAICT9CwSApgFBACAl/QsEkKYBQQAgJv0LBKCmAUEAICf9CwSwpgFBACAo/QsEwKYBQQAgKf0LBNCmAUEAICr9CwTgpgFBACAr/QsE8KYBQQAhBQNAIAggBf0ABIClAf1RIg0gDP1OIQ4gDUEE/Y0BIAz9TiEPIAkgECAO/Q79USAUIA/9Dv1RIQggCiARIA79Dv1RIBUgD/0O/VEhCSALIBIgDv0O/VEgFiAP/Q79USEKIBMgDv0OIBcgD/0O/VEhCyAFQRBqIgVBgAJJDQALIANBEGoiAyAESQ0ACyABQYAIaiEBIAJBf2oiAkUNAUEA/Q8iGCIZIhohGyAIIAz9TiEOIAhBBP2NASAM/U4hDyAYQQD9AASAgQEgDv0O/VFBAP0ABMCBASAP/Q79USEYIBlBAP0ABJCBASAO/Q79UUEA/QAE0IEBIA/9Dv1RIRkgGkEA/QAEoIEBIA79Dv1RQQD9AATggQEgD/0O/VEhGiAbQQD9AASwgQEgDv0O/VFBAP0ABPCBASAP/Q79USEbIAkgDP1OIQ4gCUEE/Y0BIAz9TiEPIBhBAP0ABICCASAO/Q79UUEA/QAEwIIBIA/9Dv1RIRggGUEA/QAEkIIBIA79Dv1RQQD9AATQggEgD/0O/VEhGSAaQQD9AASgggEgDv0O/VFBAP0ABOCCASAP/Q79USEaIBtBAP0ABLCCASAO/Q79UUEA/QAE8IIBIA/9Dv1RIRsgCiAM/U4hDiAKQQT9jQEgDP1OIQ8gGEEA/QAEgIMBIA79Dv1RQQD9AATAgwEgD/0O/VEhGCAZQQD9AASQgwEgDv0O/VFBAP0ABNCDASAP/Q79USEZIBpBAP0ABKCDASAO/Q79UUEA/QAE4IMBIA/9Dv1RIRogG0EA/QAEsIMBIA79Dv1RQQD9AATwgwEgD/0O/VEhGyALIAz9TiEOIAtBBP2NASAM/U4hDyAYQQD9AASAhAEgDv0O/VFBAP0ABMCEASAP/Q79USEYIBlBAP0ABJCEASAO/Q79UUEA/QAE0IQBIA/9Dv1RIRkgGkEA/QAEoIQBIA79Dv1RQQD9AATghAEgD/0O/VEhGiAbQQD9AASwhAEgDv0O/VFBAP0ABPCEASAP/Q79USEbIBghCCAZIQkgGiEKIBshCwwACwtBACAI/QsEgKcBQQAgCf0LBJCnAUEAIAr9CwSgpwFBACAL/QsEsKcBQQAhBiAGLQCApwEgBi0AkKcBQQh0ciAGLQCgpwFBEHRyIAYtALCnAUEYdHIhBwJAA0AgBkEBaiIGQRBGDQEgB0ECdEH8B3EoAoCFASAHQQZ2QfwHcSgCgI0BcyAHQQ52QfwHcSgCgJUBcyAHQRZ2QfwHcSgCgJ0BcyAGLQCApwEgBi0AkKcBQQh0ciAGLQCgpwFBEHRyIAYtALCnAUEYdHJzIQcMAAsLIAcL';

/**
 * Base64 of `npx tsx scripts/wat-assemble.ts codecs/crc32c.wat --relaxed-swizzle`: the same module with every
 * table lookup as relaxed SIMD's `i8x16.relaxed_swizzle`, which V8 lowers to one `pshufb` where the plain swizzle
 * costs a saturating add as well (its indices are nibbles, so both give the same bytes). 1.18-1.32x the plain
 * module's throughput on Node 24 from 1 KiB up (bench/results/crc.md); runtimes without relaxed SIMD (Node 20)
 * refuse to compile it and run the plain one.
 */
export const CRC32C_RELAXED_WASM_BASE64 =
  'AGFzbQEAAAABDwJgA39/fwF/YAN/f38BfwMDAgABBQMBAAIHHAMGdXBkYXRlAAAGYmxvY2tzAAEGbWVtb3J5AgAKuBsC5gIGAX8BfwF/AX8BfwF/IAEgAmohAyABIAJBcHFqIQQCQANAIAEgBE8NASABKAIEIQYgASgCCCEHIAEoAgwhCCAGQQJ0QfwHcSgCgFggBkEGdkH8B3EoAoBQcyAGQQ52QfwHcSgCgEggBkEWdkH8B3EoAoBAc3MgB0ECdEH8B3EoAoA4IAdBBnZB/AdxKAKAMHMgB0EOdkH8B3EoAoAoIAdBFnZB/AdxKAKAIHNzcyAIQQJ0QfwHcSgCgBggCEEGdkH8B3EoAoAQcyAIQQ52QfwHcSgCgAggCEEWdkH8B3EoAgBzc3MgASgCACAAcyEFIAVBAnRB/AdxKAKAeCAFQQZ2QfwHcSgCgHBzIAVBDnZB/AdxKAKAaCAFQRZ2QfwHcSgCgGBzc3MhACABQRBqIQEMAAsLAkADQCABIANPDQEgACABLQAAc0H/AXFBAnQoAgAgAEEIdnMhACABQQFqIQEMAAsLIAALzRg5AX8BfwF/AX8BfwF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7AXsBewF7QQ/9DyEMQQD9DyAA/RcAIQhBAP0PIABBCHb9FwAhCUEA/Q8gAEEQdv0XACEKQQD9DyAAQRh2/RcAIQtBAP0ABICAASEQQQD9AATAgAEhFEEA/QAEkIABIRFBAP0ABNCAASEVQQD9AASggAEhEkEA/QAE4IABIRZBAP0ABLCAASETQQD9AATwgAEhFwJAA0AgASEDIAFBwABqIQQDQCAD/QAEACEcIAP9AARAIR0gA/0ABIABIR4gA/0ABMABIR8gA/0ABIACISAgA/0ABMACISEgA/0ABIADISIgA/0ABMADISMgA/0ABIAEISQgA/0ABMAEISUgA/0ABIAFISYgA/0ABMAFIScgA/0ABIAGISggA/0ABMAGISkgA/0ABIAHISogA/0ABMAHISsgHCAk/Q0AEAERAhIDEwQUBRUGFgcXISwgHCAk/Q0IGAkZChoLGwwcDR0OHg8fIS0gHSAl/Q0AEAERAhIDEwQUBRUGFgcXIS4gHSAl/Q0IGAkZChoLGwwcDR0OHg8fIS8gHiAm/Q0AEAERAhIDEwQUBRUGFgcXITAgHiAm/Q0IGAkZChoLGwwcDR0OHg8fITEgHyAn/Q0AEAERAhIDEwQUBRUGFgcXITIgHyAn/Q0IGAkZChoLGwwcDR0OHg8fITMgICAo/Q0AEAERAhIDEwQUBRUGFgcXITQgICAo/Q0IGAkZChoLGwwcDR0OHg8fITUgISAp/Q0AEAERAhIDEwQUBRUGFgcXITYgISAp/Q0IGAkZChoLGwwcDR0OHg8fITcgIiAq/Q0AEAERAhIDEwQUBRUGFgcXITggIiAq/Q0IGAkZChoLGwwcDR0OHg8fITkgIyAr/Q0AEAERAhIDEwQUBRUGFgcXITogIyAr/Q0IGAkZChoLGwwcDR0OHg8fITsgLCA0/Q0AEAERAhIDEwQUBRUGFgcXIRwgLCA0/Q0IGAkZChoLGwwcDR0OHg8fIR0gLSA1/Q0AEAERAhIDEwQUBRUGFgcXIR4gLSA1/Q0IGAkZChoLGwwcDR0OHg8fIR8gLiA2/Q0AEAERAhIDEwQUBRUGFgcXISAgLiA2/Q0IGAkZChoLGwwcDR0OHg8fISEgLyA3/Q0AEAERAhIDEwQUBRUGFgcXISIgLyA3/Q0IGAkZChoLGwwcDR0OHg8fISMgMCA4/Q0AEAERAhIDEwQUBRUGFgcXISQgMCA4/Q0IGAkZChoLGwwcDR0OHg8fISUgMSA5/Q0AEAERAhIDEwQUBRUGFgcXISYgMSA5/Q0IGAkZChoLGwwcDR0OHg8fIScgMiA6/Q0AEAERAhIDEwQUBRUGFgcXISggMiA6/Q0IGAkZChoLGwwcDR0OHg8fISkgMyA7/Q0AEAERAhIDEwQUBRUGFgcXISogMyA7/Q0IGAkZChoLGwwcDR0OHg8fISsgHCAk/Q0AEAERAhIDEwQUBRUGFgcXISwgHCAk/Q0IGAkZChoLGwwcDR0OHg8fIS0gHSAl/Q0AEAERAhIDEwQUBRUGFgcXIS4gHSAl/Q0IGAkZChoLGwwcDR0OHg8fIS8gHiAm/Q0AEAERAhIDEwQUBRUGFgcXITAgHiAm/Q0IGAkZChoLGwwcDR0OHg8fITEgHyAn/Q0AEAERAhIDEwQUBRUGFgcXITIgHyAn/Q0IGAkZChoLGwwcDR0OHg8fITMgICAo/Q0AEAERAhIDEwQUBRUGFgcXITQgICAo/Q0IGAkZChoLGwwcDR0OHg8fITUgISAp/Q0AEAERAhIDEwQUBRUGFgcXITYgISAp/Q0IGAkZChoLGwwcDR0OHg8fITcgIiAq/Q0AEAERAhIDEwQUBRUGFgcXITggIiAq/Q0IGAkZChoLGwwcDR0OHg8fITkgIyAr/Q0AEAERAhIDEwQUBRUGFgcXITogIyAr/Q0IGAkZChoLGwwcDR0OHg8fITsgLCA0/Q0AEAERAhIDEwQUBRUGFgcXIRwgLCA0/Q0IGAkZChoLGwwcDR0OHg8fIR0gLSA1/Q0AEAERAhIDEwQUBRUGFgcXIR4gLSA1/Q0IGAkZChoLGwwcDR0OHg8fIR8gLiA2/Q0AEAERAhIDEwQUBRUGFgcXISAgLiA2/Q0IGAkZChoLGwwcDR0OHg8fISEgLyA3/Q0AEAERAhIDEwQUBRUGFgcXISIgLyA3/Q0IGAkZChoLGwwcDR0OHg8fISMgMCA4/Q0AEAERAhIDEwQUBRUGFgcXISQgMCA4/Q0IGAkZChoLGwwcDR0OHg8fISUgMSA5/Q0AEAERAhIDEwQUBRUGFgcXISYgMSA5/Q0IGAkZChoLGwwcDR0OHg8fIScgMiA6/Q0AEAERAhIDEwQUBRUGFgcXISggMiA6/Q0IGAkZChoLGwwcDR0OHg8fISkgMyA7/Q0AEAERAhIDEwQUBRUGFgcXISogMyA7/Q0IGAkZChoLGwwcDR0OHg8fIStBACAc/QsEgKUBQQAgHf0LBJClAUEAIB79CwSgpQFBACAf/QsEsKUBQQAgIP0LBMClAUEAICH9CwTQpQFBACAi/QsE4KUBQQAgI/0LBPClAUEAICT9CwSApgFBACAl/QsEkKYBQQAgJv0LBKCmAUEAICf9CwSwpgFBACAo/QsEwKYBQQAgKf0LBNCmAUEAICr9CwTgpgFBACAr/QsE8KYBQQAhBQNAIAggBf0ABIClAf1RIg0gDP1OIQ4gDUEE/Y0BIAz9TiEPIAkgECAO/YAC/VEgFCAP/YAC/VEhCCAKIBEgDv2AAv1RIBUgD/2AAv1RIQkgCyASIA79gAL9USAWIA/9gAL9USEKIBMgDv2AAiAXIA/9gAL9USELIAVBEGoiBUGAAkkNAAsgA0EQaiIDIARJDQALIAFBgAhqIQEgAkF/aiICRQ0BQQD9DyIYIhkiGiEbIAggDP1OIQ4gCEEE/Y0BIAz9TiEPIBhBAP0ABICBASAO/YAC/VFBAP0ABMCBASAP/YAC/VEhGCAZQQD9AASQgQEgDv2AAv1RQQD9AATQgQEgD/2AAv1RIRkgGkEA/QAEoIEBIA79gAL9UUEA/QAE4IEBIA/9gAL9USEaIBtBAP0ABLCBASAO/YAC/VFBAP0ABPCBASAP/YAC/VEhGyAJIAz9TiEOIAlBBP2NASAM/U4hDyAYQQD9AASAggEgDv2AAv1RQQD9AATAggEgD/2AAv1RIRggGUEA/QAEkIIBIA79gAL9UUEA/QAE0IIBIA/9gAL9USEZIBpBAP0ABKCCASAO/YAC/VFBAP0ABOCCASAP/YAC/VEhGiAbQQD9AASwggEgDv2AAv1RQQD9AATwggEgD/2AAv1RIRsgCiAM/U4hDiAKQQT9jQEgDP1OIQ8gGEEA/QAEgIMBIA79gAL9UUEA/QAEwIMBIA/9gAL9USEYIBlBAP0ABJCDASAO/YAC/VFBAP0ABNCDASAP/YAC/VEhGSAaQQD9AASggwEgDv2AAv1RQQD9AATggwEgD/2AAv1RIRogG0EA/QAEsIMBIA79gAL9UUEA/QAE8IMBIA/9gAL9USEbIAsgDP1OIQ4gC0EE/Y0BIAz9TiEPIBhBAP0ABICEASAO/YAC/VFBAP0ABMCEASAP/YAC/VEhGCAZQQD9AASQhAEgDv2AAv1RQQD9AATQhAEgD/2AAv1RIRkgGkEA/QAEoIQBIA79gAL9UUEA/QAE4IQBIA/9gAL9USEaIBtBAP0ABLCEASAO/YAC/VFBAP0ABPCEASAP/YAC/VEhGyAYIQggGSEJIBohCiAbIQsMAAsLQQAgCP0LBICnAUEAIAn9CwSQpwFBACAK/QsEoKcBQQAgC/0LBLCnAUEAIQYgBi0AgKcBIAYtAJCnAUEIdHIgBi0AoKcBQRB0ciAGLQCwpwFBGHRyIQcCQANAIAZBAWoiBkEQRg0BIAdBAnRB/AdxKAKAhQEgB0EGdkH8B3EoAoCNAXMgB0EOdkH8B3EoAoCVAXMgB0EWdkH8B3EoAoCdAXMgBi0AgKcBIAYtAJCnAUEIdHIgBi0AoKcBQRB0ciAGLQCwpwFBGHRycyEHDAALCyAHCw==';

/**
 * Base64 of `npx tsx scripts/wat-assemble.ts codecs/crc32c-scalar.wat`: the slice-by-16 loop alone (tables at
 * [0, 16384), `update` only), for runtimes without WebAssembly SIMD.
 */
export const CRC32C_SCALAR_WASM_BASE64 =
  'AGFzbQEAAAABCAFgA39/fwF/AwIBAAUDAQACBxMCBnVwZGF0ZQAABm1lbW9yeQIACv0CAfoCBgF/AX8BfwF/AX8BfyABIAJqIQMgASACQXBxaiEEAkADQCABIARPDQEgASgCACAAcyEFIAEoAgQhBiABKAIIIQcgASgCDCEIIAVB/wFxQQJ0KAKAeCAFQQh2Qf8BcUECdCgCgHBzIAVBEHZB/wFxQQJ0KAKAaHMgBUEYdkECdCgCgGBzIAZB/wFxQQJ0KAKAWHMgBkEIdkH/AXFBAnQoAoBQcyAGQRB2Qf8BcUECdCgCgEhzIAZBGHZBAnQoAoBAcyAHQf8BcUECdCgCgDhzIAdBCHZB/wFxQQJ0KAKAMHMgB0EQdkH/AXFBAnQoAoAocyAHQRh2QQJ0KAKAIHMgCEH/AXFBAnQoAoAYcyAIQQh2Qf8BcUECdCgCgBBzIAhBEHZB/wFxQQJ0KAKACHMgCEEYdkECdCgCAHMhACABQRBqIQEMAAsLAkADQCABIANPDQEgACABLQAAc0H/AXFBAnQoAgAgAEEIdnMhACABQQFqIQEMAAsLIAAL';

// The memory layout of codecs/crc32c.wat (its header lists it).
/** TL_0..3 and TH_0..3: byte j of the byte table's entries for v and for v << 4, v < 16. */
const STEP_AT = 16384;
/** 32 nibble tables of "append 960 zero bytes" (BLOCK - STREAM), one byte of the result each. */
const ZB_AT = 16512;
/** Four 256-entry byte tables of "append 64 zero bytes" (STREAM), i32 entries. */
const ZL_AT = 17024;
/** Where the input chunk starts in the module's memory (either module: above all tables of both). */
const DATA_AT = 21504;
/** Bytes per stream of a SIMD block, and the block: sixteen streams. */
const STREAM = 64;
const BLOCK = 16 * STREAM;
/** Bytes per copy into the module's memory; 21 KiB of tables + 64 KiB of data fit its two 64 KiB pages. */
const CHUNK = 64 * 1024;

interface Exports {
  update: (state: number, ptr: number, len: number) => number;
  /** Only in the SIMD module. */
  blocks?: (state: number, ptr: number, blocks: number) => number;
  memory: { buffer: ArrayBuffer };
}

/**
 * The linear map "append `zeros` zero bytes" on a (non-inverted) CRC state, from the byte table `t0`: built
 * once from the images of the 32 single-bit states, then applied bit by bit (start-up only).
 */
function appendZeros(t0: Int32Array, zeros: number): (state: number) => number {
  const basis = Array.from({ length: 32 }, (_, bit) => {
    let c = 1 << bit;
    for (let i = 0; i < zeros; i++) c = t0[c & 0xff] ^ (c >>> 8);
    return c;
  });
  return (state) => {
    let out = 0;
    for (let bit = 0; bit < 32; bit++) if ((state >>> bit) & 1) out ^= basis[bit];
    return out;
  };
}

/** Writes every table the module reads (see the layout in codecs/crc32c.wat) into its memory. */
function writeTables(buffer: ArrayBuffer, tables: Int32Array): void {
  const memory = new Uint8Array(buffer);
  memory.set(new Uint8Array(tables.buffer, tables.byteOffset, tables.byteLength), 0);
  const t0 = tables.subarray(0, 256);
  for (let j = 0; j < 4; j++) {
    for (let v = 0; v < 16; v++) {
      memory[STEP_AT + 16 * j + v] = t0[v] >>> (8 * j);
      memory[STEP_AT + 64 + 16 * j + v] = t0[v << 4] >>> (8 * j);
    }
  }
  const skipBlock = appendZeros(t0, BLOCK - STREAM);
  for (let nibble = 0; nibble < 8; nibble++) {
    for (let k = 0; k < 4; k++) {
      for (let v = 0; v < 16; v++) memory[ZB_AT + (nibble * 4 + k) * 16 + v] = skipBlock(v << (4 * nibble)) >>> (8 * k);
    }
  }
  const skipStream = appendZeros(t0, STREAM);
  const zl = new Int32Array(buffer, ZL_AT, 1024);
  for (let k = 0; k < 4; k++) for (let b = 0; b < 256; b++) zl[k * 256 + b] = skipStream(b << (8 * k));
}

/** The embedded modules, in the order they are tried: the first that compiles runs. */
export type Crc32cWasmModule = 'relaxed' | 'simd' | 'scalar';

/** How makeWasmCrc32c chooses and runs its module. */
export interface WasmCrc32cOptions {
  /** Whether the SIMD module runs its `blocks` loop (false: its `update` alone, for bench/crc.ts). */
  simd?: boolean;
  /** The modules to try, in order; default relaxed SIMD, then SIMD, then scalar-only. */
  modules?: readonly Crc32cWasmModule[];
  /** Compiles module bytes (default `new WebAssembly.Module`); a seam for tests of the fallback. */
  compile?: WasmCompile;
}

const MODULE_BASE64: Record<Crc32cWasmModule, string> = {
  relaxed: CRC32C_RELAXED_WASM_BASE64,
  simd: CRC32C_WASM_BASE64,
  scalar: CRC32C_SCALAR_WASM_BASE64,
};

function instantiate(tables: Int32Array, options: WasmCrc32cOptions): Exports | undefined {
  // A runtime without relaxed SIMD (or SIMD) fails to compile that module: try the next. One that forbids
  // compiling WebAssembly at all (e.g. a CSP) fails them all and keeps the JS loop.
  for (const kind of options.modules ?? ['relaxed', 'simd', 'scalar']) {
    const exports = instantiateEmbedded<Exports>(MODULE_BASE64[kind], options.compile);
    if (exports === undefined) continue;
    if (kind !== 'scalar') writeTables(exports.memory.buffer, tables);
    else
      new Uint8Array(exports.memory.buffer).set(new Uint8Array(tables.buffer, tables.byteOffset, tables.byteLength), 0);
    return exports;
  }
  return undefined;
}

/**
 * A CRC-32C function over `data[start, end)` backed by WebAssembly, or
 * undefined where WebAssembly is unavailable. `tables` are the sixteen
 * slice-by-16 tables (Int32Array of 4096, table k at 256 * k); they are only
 * correct on a little-endian host, as WebAssembly memory always is.
 * The relaxed SIMD module runs where it compiles, else the SIMD one, else the scalar-only one (options).
 */
export function makeWasmCrc32c(
  tables: Int32Array,
  options: WasmCrc32cOptions = {},
): ((data: Uint8Array, start: number, end: number) => number) | undefined {
  const wasm = instantiate(tables, options);
  if (wasm === undefined) return undefined;
  const { update } = wasm;
  // The scalar module has no `blocks`: everything goes through `update`.
  const blocks = options.simd === false ? undefined : wasm.blocks;
  const memory = new Uint8Array(wasm.memory.buffer);
  return (data, start, end) => {
    let state = -1;
    while (start < end) {
      const n = Math.min(CHUNK, end - start);
      memory.set(data.subarray(start, start + n), DATA_AT);
      const whole = blocks !== undefined ? Math.floor(n / BLOCK) : 0;
      if (blocks !== undefined && whole > 0) state = blocks(state, DATA_AT, whole);
      state = update(state, DATA_AT + whole * BLOCK, n - whole * BLOCK);
      start += n;
    }
    return ~state >>> 0;
  };
}
