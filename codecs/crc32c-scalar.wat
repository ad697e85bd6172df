;; CRC-32C (Castagnoli), scalar slice-by-16 only, for tidemark's
;; codecs/crc32c-wasm.ts: the module it runs where WebAssembly compiles but its
;; SIMD does not (codecs/crc32c.wat's module then fails to compile). It is the
;; module crc32c ran before the SIMD loop, and bench/crc.ts's "before" row.
;; Assembled by scripts/wat-assemble.ts; test/unit/codecs/crc-wasm.test.ts
;; checks that the bytes embedded in codecs/crc32c-wasm.ts are its assembly.
;;
;; Memory layout: bytes [0, 16384) hold the sixteen 256-entry tables, written
;; by the host at start-up (table k at byte k * 1024); the input is copied in
;; above them by the host. WebAssembly loads are little-endian and may be
;; unaligned; on 64-bit hosts the engine elides their bounds checks (guard
;; pages), which is where this beats the JS loop.
(module
  (memory (export "memory") 2)
  ;; update(state, ptr, len): the running CRC state (pre-inverted by the
  ;; caller, i.e. ~crc) after the bytes [ptr, ptr + len).
  (func (export "update") (param $crc i32) (param $p i32) (param $len i32) (result i32)
    (local $end i32) (local $end16 i32) (local $a i32) (local $b i32) (local $c i32) (local $d i32)
    local.get $p  local.get $len  i32.add  local.set $end
    local.get $p  local.get $len  i32.const -16  i32.and  i32.add  local.set $end16
    block
      loop
        local.get $p  local.get $end16  i32.ge_u  br_if 1
        local.get $p  i32.load  local.get $crc  i32.xor  local.set $a
        local.get $p  i32.load offset=4  local.set $b
        local.get $p  i32.load offset=8  local.set $c
        local.get $p  i32.load offset=12  local.set $d
        local.get $a  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=15360
        local.get $a  i32.const 8  i32.shr_u  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=14336  i32.xor
        local.get $a  i32.const 16  i32.shr_u  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=13312  i32.xor
        local.get $a  i32.const 24  i32.shr_u  i32.const 2  i32.shl  i32.load offset=12288  i32.xor
        local.get $b  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=11264  i32.xor
        local.get $b  i32.const 8  i32.shr_u  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=10240  i32.xor
        local.get $b  i32.const 16  i32.shr_u  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=9216  i32.xor
        local.get $b  i32.const 24  i32.shr_u  i32.const 2  i32.shl  i32.load offset=8192  i32.xor
        local.get $c  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=7168  i32.xor
        local.get $c  i32.const 8  i32.shr_u  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=6144  i32.xor
        local.get $c  i32.const 16  i32.shr_u  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=5120  i32.xor
        local.get $c  i32.const 24  i32.shr_u  i32.const 2  i32.shl  i32.load offset=4096  i32.xor
        local.get $d  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=3072  i32.xor
        local.get $d  i32.const 8  i32.shr_u  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=2048  i32.xor
        local.get $d  i32.const 16  i32.shr_u  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load offset=1024  i32.xor
        local.get $d  i32.const 24  i32.shr_u  i32.const 2  i32.shl  i32.load offset=0  i32.xor
        local.set $crc
        local.get $p  i32.const 16  i32.add  local.set $p
        br 0
      end
    end
    block
      loop
        local.get $p  local.get $end  i32.ge_u  br_if 1
        local.get $crc  local.get $p  i32.load8_u  i32.xor  i32.const 255  i32.and  i32.const 2  i32.shl  i32.load
        local.get $crc  i32.const 8  i32.shr_u  i32.xor  local.set $crc
        local.get $p  i32.const 1  i32.add  local.set $p
        br 0
      end
    end
    local.get $crc
  )
)
