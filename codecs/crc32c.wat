;; CRC-32C (Castagnoli) for tidemark's codecs/crc32c-wasm.ts: a scalar
;; slice-by-16 loop (update) and a SIMD loop over 1 KiB blocks (blocks).
;; Assembled by scripts/wat-assemble.ts (a small assembler for exactly the
;; subset used here); test/unit/codecs/crc-wasm.test.ts checks that the bytes
;; embedded in codecs/crc32c-wasm.ts are this file's assembly.
;;
;; Memory layout, all tables written by the host at start-up
;; (codecs/crc32c-wasm.ts):
;;   [0, 16384)      the sixteen 256-entry slice-by-16 tables (table k at k * 1024)
;;   [16384, 16512)  TL_0..3 then TH_0..3: byte j of T[v] and of T[v << 4], v < 16
;;   [16512, 17024)  ZB: 32 nibble tables of "append 960 zero bytes"; table
;;                   (n * 4 + k) holds byte k of the map applied to v << (4 * n)
;;   [17024, 21120)  ZL: 4 byte tables of "append 64 zero bytes" (i32 entries)
;;   [21120, 21376)  the transposed columns of one group
;;   [21376, 21440)  the sixteen lane states, byte planes, for the final fold
;;   [21504, ...)    the input, copied in by the host
;; WebAssembly loads are little-endian and may be unaligned; on 64-bit hosts
;; the engine elides their bounds checks (guard pages).
(module
  (memory (export "memory") 2)
  ;; update(state, ptr, len): the running CRC state (pre-inverted by the
  ;; caller, i.e. ~crc) after the bytes [ptr, ptr + len). Slice-by-16: each
  ;; 16-byte step XORs one table entry per byte. The twelve entries of bytes
  ;; 4-15 do not depend on the state, so they are XORed first and the state's
  ;; four last, as a tree: the chain from one step's state to the next is one
  ;; load and three XORs, not sixteen XORs in a row (1.2x, bench/results/crc.md).
  ;; Table indices are pre-scaled by 4 with one shift and a mask 1020.
  (func (export "update") (param $crc i32) (param $p i32) (param $len i32) (result i32)
    (local $end i32) (local $end16 i32) (local $a i32) (local $b i32) (local $c i32) (local $d i32)
    local.get $p  local.get $len  i32.add  local.set $end
    local.get $p  local.get $len  i32.const -16  i32.and  i32.add  local.set $end16
    block
      loop
        local.get $p  local.get $end16  i32.ge_u  br_if 1
        local.get $p  i32.load offset=4  local.set $b
        local.get $p  i32.load offset=8  local.set $c
        local.get $p  i32.load offset=12  local.set $d
        local.get $b  i32.const 2  i32.shl  i32.const 1020  i32.and  i32.load offset=11264
        local.get $b  i32.const 6  i32.shr_u  i32.const 1020  i32.and  i32.load offset=10240  i32.xor
        local.get $b  i32.const 14  i32.shr_u  i32.const 1020  i32.and  i32.load offset=9216
        local.get $b  i32.const 22  i32.shr_u  i32.const 1020  i32.and  i32.load offset=8192  i32.xor  i32.xor
        local.get $c  i32.const 2  i32.shl  i32.const 1020  i32.and  i32.load offset=7168
        local.get $c  i32.const 6  i32.shr_u  i32.const 1020  i32.and  i32.load offset=6144  i32.xor
        local.get $c  i32.const 14  i32.shr_u  i32.const 1020  i32.and  i32.load offset=5120
        local.get $c  i32.const 22  i32.shr_u  i32.const 1020  i32.and  i32.load offset=4096  i32.xor  i32.xor
        i32.xor
        local.get $d  i32.const 2  i32.shl  i32.const 1020  i32.and  i32.load offset=3072
        local.get $d  i32.const 6  i32.shr_u  i32.const 1020  i32.and  i32.load offset=2048  i32.xor
        local.get $d  i32.const 14  i32.shr_u  i32.const 1020  i32.and  i32.load offset=1024
        local.get $d  i32.const 22  i32.shr_u  i32.const 1020  i32.and  i32.load offset=0  i32.xor  i32.xor
        i32.xor
        local.get $p  i32.load  local.get $crc  i32.xor  local.set $a
        local.get $a  i32.const 2  i32.shl  i32.const 1020  i32.and  i32.load offset=15360
        local.get $a  i32.const 6  i32.shr_u  i32.const 1020  i32.and  i32.load offset=14336  i32.xor
        local.get $a  i32.const 14  i32.shr_u  i32.const 1020  i32.and  i32.load offset=13312
        local.get $a  i32.const 22  i32.shr_u  i32.const 1020  i32.and  i32.load offset=12288  i32.xor  i32.xor
        i32.xor  local.set $crc
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
  ;; blocks(state, ptr, n): the state after n blocks of 1024 bytes at ptr, by
  ;; SIMD. Each block is sixteen streams of 64 bytes, stream i in lane i of
  ;; the vectors: $c0..$c3 hold byte 0..3 of the sixteen streams' states.
  ;; The state enters in lane 0; the other lanes start at 0 (CRC state is
  ;; linear, so their parts are XORed in at the end). Per step every lane
  ;; takes one byte b of its stream: with x = c0 ^ b, the byte-wise update
  ;; state' = T[x] ^ (state >> 8) is, per output byte j, c(j+1) ^ TL_j[x & 15]
  ;; ^ TH_j[x >> 4]: sixteen-entry tables, which is what i8x16.swizzle looks
  ;; up, sixteen lanes at a time. Sixteen rows of 16 bytes (one per stream)
  ;; are transposed into sixteen columns (byte k of every stream) by four
  ;; perfect-shuffle stages, then the steps run over the columns.
  ;; Between blocks each lane skips the other streams' 960 bytes: its state
  ;; is multiplied by "append 960 zero bytes", a linear map applied as 32
  ;; nibble lookups (tables ZB). At the end lane i is i streams ahead of
  ;; lane 0; the lanes are folded with "append 64 zero bytes" (tables ZL):
  ;; t = lane 0, then t = ZL(t) ^ lane i for i = 1..15.
  (func (export "blocks") (param $crc i32) (param $p i32) (param $nb i32) (result i32)
    (local $q i32) (local $qend i32) (local $k i32) (local $s i32) (local $t i32)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $m v128) (local $x v128) (local $lo v128) (local $hi v128)
    (local $tl0 v128) (local $tl1 v128) (local $tl2 v128) (local $tl3 v128)
    (local $th0 v128) (local $th1 v128) (local $th2 v128) (local $th3 v128)
    (local $o0 v128) (local $o1 v128) (local $o2 v128) (local $o3 v128)
    (local $r0 v128) (local $r1 v128) (local $r2 v128) (local $r3 v128) (local $r4 v128) (local $r5 v128) (local $r6 v128) (local $r7 v128) (local $r8 v128) (local $r9 v128) (local $r10 v128) (local $r11 v128) (local $r12 v128) (local $r13 v128) (local $r14 v128) (local $r15 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128) (local $t4 v128) (local $t5 v128) (local $t6 v128) (local $t7 v128) (local $t8 v128) (local $t9 v128) (local $t10 v128) (local $t11 v128) (local $t12 v128) (local $t13 v128) (local $t14 v128) (local $t15 v128)
    i32.const 15  i8x16.splat  local.set $m
    i32.const 0  i8x16.splat  local.get $crc  i8x16.replace_lane 0  local.set $c0
    i32.const 0  i8x16.splat  local.get $crc  i32.const 8  i32.shr_u  i8x16.replace_lane 0  local.set $c1
    i32.const 0  i8x16.splat  local.get $crc  i32.const 16  i32.shr_u  i8x16.replace_lane 0  local.set $c2
    i32.const 0  i8x16.splat  local.get $crc  i32.const 24  i32.shr_u  i8x16.replace_lane 0  local.set $c3
    i32.const 0  v128.load offset=16384  local.set $tl0  i32.const 0  v128.load offset=16448  local.set $th0
    i32.const 0  v128.load offset=16400  local.set $tl1  i32.const 0  v128.load offset=16464  local.set $th1
    i32.const 0  v128.load offset=16416  local.set $tl2  i32.const 0  v128.load offset=16480  local.set $th2
    i32.const 0  v128.load offset=16432  local.set $tl3  i32.const 0  v128.load offset=16496  local.set $th3
    block
      loop
        ;; one block: four groups of 16 bytes per stream
        local.get $p  local.set $q
        local.get $p  i32.const 64  i32.add  local.set $qend
        loop
          local.get $q  v128.load offset=0  local.set $r0
          local.get $q  v128.load offset=64  local.set $r1
          local.get $q  v128.load offset=128  local.set $r2
          local.get $q  v128.load offset=192  local.set $r3
          local.get $q  v128.load offset=256  local.set $r4
          local.get $q  v128.load offset=320  local.set $r5
          local.get $q  v128.load offset=384  local.set $r6
          local.get $q  v128.load offset=448  local.set $r7
          local.get $q  v128.load offset=512  local.set $r8
          local.get $q  v128.load offset=576  local.set $r9
          local.get $q  v128.load offset=640  local.set $r10
          local.get $q  v128.load offset=704  local.set $r11
          local.get $q  v128.load offset=768  local.set $r12
          local.get $q  v128.load offset=832  local.set $r13
          local.get $q  v128.load offset=896  local.set $r14
          local.get $q  v128.load offset=960  local.set $r15
          ;; stage 1
          local.get $r0  local.get $r8  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t0
          local.get $r0  local.get $r8  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t1
          local.get $r1  local.get $r9  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t2
          local.get $r1  local.get $r9  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t3
          local.get $r2  local.get $r10  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t4
          local.get $r2  local.get $r10  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t5
          local.get $r3  local.get $r11  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t6
          local.get $r3  local.get $r11  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t7
          local.get $r4  local.get $r12  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t8
          local.get $r4  local.get $r12  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t9
          local.get $r5  local.get $r13  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t10
          local.get $r5  local.get $r13  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t11
          local.get $r6  local.get $r14  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t12
          local.get $r6  local.get $r14  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t13
          local.get $r7  local.get $r15  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t14
          local.get $r7  local.get $r15  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t15
          ;; stage 2
          local.get $t0  local.get $t8  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r0
          local.get $t0  local.get $t8  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r1
          local.get $t1  local.get $t9  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r2
          local.get $t1  local.get $t9  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r3
          local.get $t2  local.get $t10  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r4
          local.get $t2  local.get $t10  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r5
          local.get $t3  local.get $t11  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r6
          local.get $t3  local.get $t11  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r7
          local.get $t4  local.get $t12  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r8
          local.get $t4  local.get $t12  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r9
          local.get $t5  local.get $t13  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r10
          local.get $t5  local.get $t13  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r11
          local.get $t6  local.get $t14  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r12
          local.get $t6  local.get $t14  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r13
          local.get $t7  local.get $t15  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r14
          local.get $t7  local.get $t15  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r15
          ;; stage 3
          local.get $r0  local.get $r8  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t0
          local.get $r0  local.get $r8  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t1
          local.get $r1  local.get $r9  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t2
          local.get $r1  local.get $r9  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t3
          local.get $r2  local.get $r10  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t4
          local.get $r2  local.get $r10  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t5
          local.get $r3  local.get $r11  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t6
          local.get $r3  local.get $r11  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t7
          local.get $r4  local.get $r12  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t8
          local.get $r4  local.get $r12  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t9
          local.get $r5  local.get $r13  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t10
          local.get $r5  local.get $r13  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t11
          local.get $r6  local.get $r14  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t12
          local.get $r6  local.get $r14  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t13
          local.get $r7  local.get $r15  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $t14
          local.get $r7  local.get $r15  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $t15
          ;; stage 4
          local.get $t0  local.get $t8  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r0
          local.get $t0  local.get $t8  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r1
          local.get $t1  local.get $t9  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r2
          local.get $t1  local.get $t9  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r3
          local.get $t2  local.get $t10  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r4
          local.get $t2  local.get $t10  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r5
          local.get $t3  local.get $t11  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r6
          local.get $t3  local.get $t11  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r7
          local.get $t4  local.get $t12  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r8
          local.get $t4  local.get $t12  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r9
          local.get $t5  local.get $t13  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r10
          local.get $t5  local.get $t13  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r11
          local.get $t6  local.get $t14  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r12
          local.get $t6  local.get $t14  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r13
          local.get $t7  local.get $t15  i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23  local.set $r14
          local.get $t7  local.get $t15  i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31  local.set $r15
          i32.const 0  local.get $r0  v128.store offset=21120
          i32.const 0  local.get $r1  v128.store offset=21136
          i32.const 0  local.get $r2  v128.store offset=21152
          i32.const 0  local.get $r3  v128.store offset=21168
          i32.const 0  local.get $r4  v128.store offset=21184
          i32.const 0  local.get $r5  v128.store offset=21200
          i32.const 0  local.get $r6  v128.store offset=21216
          i32.const 0  local.get $r7  v128.store offset=21232
          i32.const 0  local.get $r8  v128.store offset=21248
          i32.const 0  local.get $r9  v128.store offset=21264
          i32.const 0  local.get $r10  v128.store offset=21280
          i32.const 0  local.get $r11  v128.store offset=21296
          i32.const 0  local.get $r12  v128.store offset=21312
          i32.const 0  local.get $r13  v128.store offset=21328
          i32.const 0  local.get $r14  v128.store offset=21344
          i32.const 0  local.get $r15  v128.store offset=21360
          i32.const 0  local.set $k
          loop
            local.get $c0  local.get $k  v128.load offset=21120  v128.xor  local.tee $x  local.get $m  v128.and  local.set $lo
            local.get $x  i32.const 4  i16x8.shr_u  local.get $m  v128.and  local.set $hi
            local.get $c1  local.get $tl0  local.get $lo  i8x16.swizzle  v128.xor  local.get $th0  local.get $hi  i8x16.swizzle  v128.xor  local.set $c0
            local.get $c2  local.get $tl1  local.get $lo  i8x16.swizzle  v128.xor  local.get $th1  local.get $hi  i8x16.swizzle  v128.xor  local.set $c1
            local.get $c3  local.get $tl2  local.get $lo  i8x16.swizzle  v128.xor  local.get $th2  local.get $hi  i8x16.swizzle  v128.xor  local.set $c2
            local.get $tl3  local.get $lo  i8x16.swizzle  local.get $th3  local.get $hi  i8x16.swizzle  v128.xor  local.set $c3
            local.get $k  i32.const 16  i32.add  local.tee $k  i32.const 256  i32.lt_u  br_if 0
          end
          local.get $q  i32.const 16  i32.add  local.tee $q  local.get $qend  i32.lt_u  br_if 0
        end
        local.get $p  i32.const 1024  i32.add  local.set $p
        local.get $nb  i32.const -1  i32.add  local.tee $nb  i32.eqz  br_if 1
        ;; advance every lane past the other streams' bytes of the block
        i32.const 0  i8x16.splat  local.tee $o0  local.tee $o1  local.tee $o2  local.set $o3
        local.get $c0  local.get $m  v128.and  local.set $lo
        local.get $c0  i32.const 4  i16x8.shr_u  local.get $m  v128.and  local.set $hi
        local.get $o0  i32.const 0  v128.load offset=16512  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16576  local.get $hi  i8x16.swizzle  v128.xor  local.set $o0
        local.get $o1  i32.const 0  v128.load offset=16528  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16592  local.get $hi  i8x16.swizzle  v128.xor  local.set $o1
        local.get $o2  i32.const 0  v128.load offset=16544  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16608  local.get $hi  i8x16.swizzle  v128.xor  local.set $o2
        local.get $o3  i32.const 0  v128.load offset=16560  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16624  local.get $hi  i8x16.swizzle  v128.xor  local.set $o3
        local.get $c1  local.get $m  v128.and  local.set $lo
        local.get $c1  i32.const 4  i16x8.shr_u  local.get $m  v128.and  local.set $hi
        local.get $o0  i32.const 0  v128.load offset=16640  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16704  local.get $hi  i8x16.swizzle  v128.xor  local.set $o0
        local.get $o1  i32.const 0  v128.load offset=16656  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16720  local.get $hi  i8x16.swizzle  v128.xor  local.set $o1
        local.get $o2  i32.const 0  v128.load offset=16672  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16736  local.get $hi  i8x16.swizzle  v128.xor  local.set $o2
        local.get $o3  i32.const 0  v128.load offset=16688  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16752  local.get $hi  i8x16.swizzle  v128.xor  local.set $o3
        local.get $c2  local.get $m  v128.and  local.set $lo
        local.get $c2  i32.const 4  i16x8.shr_u  local.get $m  v128.and  local.set $hi
        local.get $o0  i32.const 0  v128.load offset=16768  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16832  local.get $hi  i8x16.swizzle  v128.xor  local.set $o0
        local.get $o1  i32.const 0  v128.load offset=16784  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16848  local.get $hi  i8x16.swizzle  v128.xor  local.set $o1
        local.get $o2  i32.const 0  v128.load offset=16800  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16864  local.get $hi  i8x16.swizzle  v128.xor  local.set $o2
        local.get $o3  i32.const 0  v128.load offset=16816  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16880  local.get $hi  i8x16.swizzle  v128.xor  local.set $o3
        local.get $c3  local.get $m  v128.and  local.set $lo
        local.get $c3  i32.const 4  i16x8.shr_u  local.get $m  v128.and  local.set $hi
        local.get $o0  i32.const 0  v128.load offset=16896  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16960  local.get $hi  i8x16.swizzle  v128.xor  local.set $o0
        local.get $o1  i32.const 0  v128.load offset=16912  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16976  local.get $hi  i8x16.swizzle  v128.xor  local.set $o1
        local.get $o2  i32.const 0  v128.load offset=16928  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=16992  local.get $hi  i8x16.swizzle  v128.xor  local.set $o2
        local.get $o3  i32.const 0  v128.load offset=16944  local.get $lo  i8x16.swizzle  v128.xor  i32.const 0  v128.load offset=17008  local.get $hi  i8x16.swizzle  v128.xor  local.set $o3
        local.get $o0  local.set $c0  local.get $o1  local.set $c1  local.get $o2  local.set $c2  local.get $o3  local.set $c3
        br 0
      end
    end
    ;; fold the sixteen lanes into one state
    i32.const 0  local.get $c0  v128.store offset=21376
    i32.const 0  local.get $c1  v128.store offset=21392
    i32.const 0  local.get $c2  v128.store offset=21408
    i32.const 0  local.get $c3  v128.store offset=21424
    i32.const 0  local.set $s
    local.get $s  i32.load8_u offset=21376
    local.get $s  i32.load8_u offset=21392  i32.const 8  i32.shl  i32.or
    local.get $s  i32.load8_u offset=21408  i32.const 16  i32.shl  i32.or
    local.get $s  i32.load8_u offset=21424  i32.const 24  i32.shl  i32.or
    local.set $t
    block
      loop
        local.get $s  i32.const 1  i32.add  local.tee $s  i32.const 16  i32.eq  br_if 1
      local.get $t  i32.const 2  i32.shl  i32.const 1020  i32.and  i32.load offset=17024
      local.get $t  i32.const 6  i32.shr_u  i32.const 1020  i32.and  i32.load offset=18048  i32.xor
      local.get $t  i32.const 14  i32.shr_u  i32.const 1020  i32.and  i32.load offset=19072  i32.xor
      local.get $t  i32.const 22  i32.shr_u  i32.const 1020  i32.and  i32.load offset=20096  i32.xor
        local.get $s  i32.load8_u offset=21376
        local.get $s  i32.load8_u offset=21392  i32.const 8  i32.shl  i32.or
        local.get $s  i32.load8_u offset=21408  i32.const 16  i32.shl  i32.or
        local.get $s  i32.load8_u offset=21424  i32.const 24  i32.shl  i32.or
        i32.xor  local.set $t
        br 0
      end
    end
    local.get $t
  )
)
