;; Raw Snappy block elements (literals and copies) for tidemark's
;; codecs/compression/snappy-wasm.ts; the xerial framing and the block's
;; length varint stay in TypeScript (codecs/compression/snappy.ts). It decodes
;; exactly what decodeSnappyElements (codecs/compression/snappy-block.ts)
;; decodes and refuses exactly what that refuses, returning -1 instead of
;; naming the fault: the host then runs the JS decoder on the same bytes for
;; its typed error. Assembled by scripts/wat-assemble.ts;
;; test/unit/codecs/snappy-wasm.test.ts checks the embedded base64 is its
;; assembly.
;;
;; Memory: the host copies the compressed input to [0, n) and decodes into a
;; region above it, and leaves at least 8 bytes after each. Literals and copies
;; whose offset is at least 8 move 8 bytes per step and may read up to 7 bytes
;; past their source and write up to 7 past their end: those writes land in
;; output not decoded yet (later elements overwrite it) or in the slack after
;; it, never in the input. Every element is checked against its block's input
;; end and declared output end before anything moves.
(module
  (memory (export "memory") 1)
  ;; decode(s, end, d, dstEnd): decodes the elements in [s, end) to [d, ...);
  ;; they must not produce more than dstEnd - d bytes. Returns where output
  ;; ended (the host checks it is dstEnd), or -1 for corrupt input.
  (func (export "decode") (param $s i32) (param $end i32) (param $d i32) (param $dstEnd i32) (result i32)
    (local $base i32) (local $tag i32) (local $len i32) (local $off i32) (local $from i32) (local $stop i32)
    (local $extra i32)
    local.get $d  local.set $base
    block ;; depth 1 from the loop body: corrupt input
      loop ;; depth 0 from the loop body: the next element
        local.get $s  local.get $end  i32.ge_u
        if  local.get $d  return  end
        local.get $s  i32.load8_u  local.set $tag
        local.get $s  i32.const 1  i32.add  local.set $s
        local.get $tag  i32.const 3  i32.and  i32.eqz
        if ;; literal; in here br 1 is the next element, br 2 corrupt input
          ;; $len holds the length minus one, so a 4-byte length of 2^32 - 1 cannot wrap.
          local.get $tag  i32.const 2  i32.shr_u  local.set $len
          local.get $len  i32.const 60  i32.ge_u
          if ;; 1-4 little-endian length bytes follow the tag
            local.get $len  i32.const 59  i32.sub  local.set $extra
            local.get $extra  local.get $end  local.get $s  i32.sub  i32.gt_u  br_if 3
            ;; One 4-byte load (the input has slack after it), masked to $extra bytes.
            local.get $s  i32.load
            i32.const -1  i32.const 32  local.get $extra  i32.const 3  i32.shl  i32.sub  i32.shr_u
            i32.and  local.set $len
            local.get $s  local.get $extra  i32.add  local.set $s
          end
          local.get $len  local.get $end  local.get $s  i32.sub  i32.ge_u  br_if 2
          local.get $len  local.get $dstEnd  local.get $d  i32.sub  i32.ge_u  br_if 2
          local.get $d  local.get $len  i32.add  i32.const 1  i32.add  local.set $stop
          loop
            local.get $d  local.get $s  i64.load  i64.store
            local.get $s  i32.const 8  i32.add  local.set $s
            local.get $d  i32.const 8  i32.add  local.tee $d
            local.get $stop  i32.lt_u  br_if 0
          end
          ;; Step back over the overshoot of the last 8-byte move.
          local.get $s  local.get $d  local.get $stop  i32.sub  i32.sub  local.set $s
          local.get $stop  local.set $d
          br 1
        end
        local.get $tag  i32.const 3  i32.and  i32.const 1  i32.eq
        if ;; copy with a 1-byte offset: 3 more offset bits and a 3-bit length in the tag
          local.get $s  local.get $end  i32.ge_u  br_if 2
          local.get $tag  i32.const 2  i32.shr_u  i32.const 7  i32.and  i32.const 4  i32.add  local.set $len
          local.get $tag  i32.const 5  i32.shr_u  i32.const 8  i32.shl  local.get $s  i32.load8_u  i32.or  local.set $off
          local.get $s  i32.const 1  i32.add  local.set $s
        else
          local.get $tag  i32.const 2  i32.shr_u  i32.const 1  i32.add  local.set $len
          local.get $tag  i32.const 3  i32.and  i32.const 2  i32.eq
          if ;; copy with a 2-byte offset; br 3 is corrupt input in here
            i32.const 2  local.get $end  local.get $s  i32.sub  i32.gt_u  br_if 3
            local.get $s  i32.load16_u  local.set $off
            local.get $s  i32.const 2  i32.add  local.set $s
          else ;; copy with a 4-byte offset
            i32.const 4  local.get $end  local.get $s  i32.sub  i32.gt_u  br_if 3
            local.get $s  i32.load  local.set $off
            local.get $s  i32.const 4  i32.add  local.set $s
          end
        end
        local.get $off  i32.eqz  br_if 1
        local.get $off  local.get $d  local.get $base  i32.sub  i32.gt_u  br_if 1
        local.get $len  local.get $dstEnd  local.get $d  i32.sub  i32.gt_u  br_if 1
        local.get $d  local.get $off  i32.sub  local.set $from
        local.get $d  local.get $len  i32.add  local.set $stop
        local.get $off  i32.const 8  i32.ge_u
        if ;; 8 bytes a step: each step reads only bytes written before it
          loop
            local.get $d  local.get $from  i64.load  i64.store
            local.get $from  i32.const 8  i32.add  local.set $from
            local.get $d  i32.const 8  i32.add  local.tee $d
            local.get $stop  i32.lt_u  br_if 0
          end
        else ;; an offset under 8 repeats the last bytes: byte by byte
          loop
            local.get $d  local.get $from  i32.load8_u  i32.store8
            local.get $from  i32.const 1  i32.add  local.set $from
            local.get $d  i32.const 1  i32.add  local.tee $d
            local.get $stop  i32.lt_u  br_if 0
          end
        end
        local.get $stop  local.set $d
        br 0
      end
    end
    i32.const -1
  )
)
