;; LZ4 block decoder for tidemark's codecs/compression/lz4-wasm.ts: the
;; bounds-checked decoder of codecs/compression/lz4-block.ts with its checks in
;; the same order, copying literals and matches 8 bytes a step (a match whose
;; offset is under 8 byte by byte, as it repeats bytes it is writing).
;; Assembled by scripts/wat-assemble.ts; test/unit/codecs/compression/lz4-wasm.test.ts
;; checks that the bytes embedded in the loader are its assembly.
;;
;; Memory layout (3 pages, never grown): the host copies one compressed block
;; of at most 65536 bytes to 0 and the block decodes from 65600, never past the
;; host's dstEnd (at most 65600 + 65536). The 8-byte copies may read up to 7
;; bytes past a run (still inside memory) and write up to 7 bytes past it (into
;; output written next, or past what the host reads), so each area has 64
;; bytes of room after it.
;;
;; Results below zero name what is wrong (the host maps them to the JS
;; decoder's messages): -1 output passes dstEnd, -2 block ends inside a
;; sequence, -3 literal length runs past the end, -4 literals run past the
;; end, -5 match offset runs past the end, -6 match offset reaches before the
;; block's output (the host lets the JS decoder redo the block: it may reach
;; into earlier blocks of the frame), -7 match length runs past the end.
(module
  (memory (export "memory") 3)
  ;; decompress(src, end, dst, dstEnd): decodes the block [src, end) from dst;
  ;; returns the end of the output, or a code below zero.
  (func (export "decompress") (param $src i32) (param $end i32) (param $dst i32) (param $dstEnd i32) (result i32)
    (local $s i32) (local $d i32) (local $token i32) (local $lit i32) (local $b i32) (local $offset i32)
    (local $len i32) (local $from i32) (local $stop i32) (local $n i32)
    local.get $src  local.set $s
    local.get $dst  local.set $d
    loop
      local.get $s  local.get $end  i32.ge_u
      if
        i32.const -2  return
      end
      local.get $s  i32.load8_u  local.tee $token  i32.const 4  i32.shr_u  local.set $lit
      local.get $s  i32.const 1  i32.add  local.set $s
      local.get $lit  i32.const 15  i32.eq
      if
        loop
          local.get $s  local.get $end  i32.ge_u
          if
            i32.const -3  return
          end
          local.get $s  i32.load8_u  local.tee $b  local.get $lit  i32.add  local.set $lit
          local.get $s  i32.const 1  i32.add  local.set $s
          local.get $b  i32.const 255  i32.eq  br_if 0
        end
      end
      local.get $lit  local.get $end  local.get $s  i32.sub  i32.gt_u
      if
        i32.const -4  return
      end
      local.get $lit  local.get $dstEnd  local.get $d  i32.sub  i32.gt_u
      if
        i32.const -1  return
      end
      i32.const 0  local.set $n
      block
        loop
          local.get $n  local.get $lit  i32.ge_u  br_if 1
          local.get $d  local.get $n  i32.add
          local.get $s  local.get $n  i32.add  i64.load
          i64.store
          local.get $n  i32.const 8  i32.add  local.set $n
          br 0
        end
      end
      local.get $s  local.get $lit  i32.add  local.set $s
      local.get $d  local.get $lit  i32.add  local.set $d
      local.get $s  local.get $end  i32.eq
      if
        local.get $d  return
      end
      local.get $end  local.get $s  i32.sub  i32.const 2  i32.lt_u
      if
        i32.const -5  return
      end
      local.get $s  i32.load16_u  local.set $offset
      local.get $s  i32.const 2  i32.add  local.set $s
      local.get $offset  i32.eqz
      local.get $offset  local.get $d  local.get $dst  i32.sub  i32.gt_u  i32.or
      if
        i32.const -6  return
      end
      local.get $token  i32.const 15  i32.and  i32.const 4  i32.add  local.set $len
      local.get $len  i32.const 19  i32.eq
      if
        loop
          local.get $s  local.get $end  i32.ge_u
          if
            i32.const -7  return
          end
          local.get $s  i32.load8_u  local.tee $b  local.get $len  i32.add  local.set $len
          local.get $s  i32.const 1  i32.add  local.set $s
          local.get $b  i32.const 255  i32.eq  br_if 0
        end
      end
      local.get $len  local.get $dstEnd  local.get $d  i32.sub  i32.gt_u
      if
        i32.const -1  return
      end
      local.get $d  local.get $offset  i32.sub  local.set $from
      local.get $d  local.get $len  i32.add  local.set $stop
      local.get $offset  i32.const 8  i32.ge_u
      if
        ;; Each 8-byte load reads only bytes already written (offset >= 8).
        block
          loop
            local.get $d  local.get $stop  i32.ge_u  br_if 1
            local.get $d  local.get $from  i64.load  i64.store
            local.get $d  i32.const 8  i32.add  local.set $d
            local.get $from  i32.const 8  i32.add  local.set $from
            br 0
          end
        end
      else
        block
          loop
            local.get $d  local.get $stop  i32.ge_u  br_if 1
            local.get $d  local.get $from  i32.load8_u  i32.store8
            local.get $d  i32.const 1  i32.add  local.set $d
            local.get $from  i32.const 1  i32.add  local.set $from
            br 0
          end
        end
      end
      local.get $stop  local.set $d
      br 0
    end
    i32.const -2
  )
)
