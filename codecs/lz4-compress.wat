;; LZ4 block compressor for tidemark's codecs/compression/lz4-wasm.ts: the
;; same greedy "fast" strategy as codecs/compression/lz4-block.ts (4096-entry
;; hash table, Fibonacci hash of 4 bytes, a step that grows while nothing
;; matches), written here because WebAssembly's unaligned 4- and 8-byte loads
;; make the candidate check one compare and the match extension 8 bytes a step,
;; where the JS loop goes byte by byte. Assembled by scripts/wat-assemble.ts;
;; test/unit/codecs/compression/lz4-wasm.test.ts checks that the bytes embedded
;; in the loader are its assembly.
;;
;; Memory layout (3 pages, never grown): bytes [0, 16384) are the hash table
;; (i32 positions, 0 = empty; the host clears it before each block), the host
;; copies one block of at most 65536 bytes to 16384 and the block is written
;; from 81984. Literal runs are copied 8 bytes at a time, so a copy may read up
;; to 7 bytes past its run (still inside memory) and write up to 7 bytes past
;; it (into output that is overwritten next, or past the block's end, which the
;; host does not read); the layout leaves room for both.
(module
  (memory (export "memory") 3)
  ;; compress(src, end, dst): the block [src, end) as LZ4 sequences from dst;
  ;; returns the end of the output. src must be above the hash table (a
  ;; position of 0 is an empty slot) and end - src at most 65536.
  (func (export "compress") (param $src i32) (param $end i32) (param $dst i32) (result i32)
    (local $op i32) (local $anchor i32) (local $ip i32) (local $matchLimit i32) (local $extendLimit i32)
    (local $misses i32) (local $seq i32) (local $h i32) (local $ref i32) (local $step i32) (local $p i32)
    (local $len i32) (local $lit i32) (local $token i32) (local $tokenPos i32) (local $n i32) (local $rest i32)
    (local $x i64)
    local.get $dst  local.set $op
    local.get $src  local.set $anchor
    ;; Blocks under 13 bytes are all literals (a match may not start in the last 12).
    local.get $end  local.get $src  i32.sub  i32.const 13  i32.ge_u
    if
      local.get $end  i32.const 12  i32.sub  local.set $matchLimit
      local.get $end  i32.const 5  i32.sub  local.set $extendLimit
      local.get $src  local.set $ip
      i32.const 64  local.set $misses
      local.get $ip  i32.load  local.set $seq
      block
        loop
          local.get $ip  local.get $matchLimit  i32.ge_u  br_if 1
          ;; Slot address: (seq * 2654435761) >>> 20, times 4.
          local.get $seq  i32.const -1640531535  i32.mul  i32.const 20  i32.shr_u  i32.const 2  i32.shl  local.tee $h
          i32.load  local.set $ref
          local.get $h  local.get $ip  i32.store
          ;; A candidate from this block, at most 65535 back, whose 4 bytes equal ours.
          local.get $ref  local.get $src  i32.ge_u
          if
            local.get $ip  local.get $ref  i32.sub  i32.const 65536  i32.lt_u
            if
              local.get $ref  i32.load  local.get $seq  i32.eq
              if
                i32.const 64  local.set $misses
                ;; Extend backwards over the pending literals.
                local.get $ip  local.set $p
                block
                  loop
                    local.get $p  local.get $anchor  i32.le_u  br_if 1
                    local.get $ref  local.get $src  i32.le_u  br_if 1
                    local.get $p  i32.const 1  i32.sub  i32.load8_u
                    local.get $ref  i32.const 1  i32.sub  i32.load8_u  i32.ne  br_if 1
                    local.get $p  i32.const 1  i32.sub  local.set $p
                    local.get $ref  i32.const 1  i32.sub  local.set $ref
                    br 0
                  end
                end
                local.get $ip  local.get $p  i32.sub  i32.const 4  i32.add  local.set $len
                ;; Extend forwards 8 bytes a step (the first differing byte from the xor's trailing zeros),
                ;; then byte by byte up to the last 5 bytes, which stay literals.
                block
                  block
                    loop
                      local.get $p  local.get $len  i32.add  i32.const 8  i32.add  local.get $extendLimit  i32.gt_u  br_if 1
                      local.get $p  local.get $len  i32.add  i64.load
                      local.get $ref  local.get $len  i32.add  i64.load  i64.xor  local.tee $x
                      i64.eqz
                      if
                        local.get $len  i32.const 8  i32.add  local.set $len
                        br 1
                      end
                      local.get $x  i64.ctz  i32.wrap_i64  i32.const 3  i32.shr_u  local.get $len  i32.add  local.set $len
                      br 2
                    end
                  end
                  loop
                    local.get $p  local.get $len  i32.add  local.get $extendLimit  i32.ge_u  br_if 1
                    local.get $p  local.get $len  i32.add  i32.load8_u
                    local.get $ref  local.get $len  i32.add  i32.load8_u  i32.ne  br_if 1
                    local.get $len  i32.const 1  i32.add  local.set $len
                    br 0
                  end
                end
                ;; The sequence: token, literal length, literals, offset, match length.
                local.get $p  local.get $anchor  i32.sub  local.set $lit
                local.get $op  local.set $tokenPos
                local.get $op  i32.const 1  i32.add  local.set $op
                local.get $lit  i32.const 15  i32.ge_u
                if
                  i32.const 240  local.set $token
                  local.get $lit  i32.const 15  i32.sub  local.set $rest
                  block
                    loop
                      local.get $rest  i32.const 255  i32.lt_u  br_if 1
                      local.get $op  i32.const 255  i32.store8
                      local.get $op  i32.const 1  i32.add  local.set $op
                      local.get $rest  i32.const 255  i32.sub  local.set $rest
                      br 0
                    end
                  end
                  local.get $op  local.get $rest  i32.store8
                  local.get $op  i32.const 1  i32.add  local.set $op
                else
                  local.get $lit  i32.const 4  i32.shl  local.set $token
                end
                i32.const 0  local.set $n
                block
                  loop
                    local.get $n  local.get $lit  i32.ge_u  br_if 1
                    local.get $op  local.get $n  i32.add
                    local.get $anchor  local.get $n  i32.add  i64.load
                    i64.store
                    local.get $n  i32.const 8  i32.add  local.set $n
                    br 0
                  end
                end
                local.get $op  local.get $lit  i32.add  local.set $op
                local.get $op  local.get $p  local.get $ref  i32.sub  i32.store16
                local.get $op  i32.const 2  i32.add  local.set $op
                local.get $len  i32.const 4  i32.sub  local.set $rest
                local.get $rest  i32.const 15  i32.ge_u
                if
                  local.get $token  i32.const 15  i32.or  local.set $token
                  local.get $rest  i32.const 15  i32.sub  local.set $rest
                  block
                    loop
                      local.get $rest  i32.const 255  i32.lt_u  br_if 1
                      local.get $op  i32.const 255  i32.store8
                      local.get $op  i32.const 1  i32.add  local.set $op
                      local.get $rest  i32.const 255  i32.sub  local.set $rest
                      br 0
                    end
                  end
                  local.get $op  local.get $rest  i32.store8
                  local.get $op  i32.const 1  i32.add  local.set $op
                else
                  local.get $token  local.get $rest  i32.or  local.set $token
                end
                local.get $tokenPos  local.get $token  i32.store8
                local.get $p  local.get $len  i32.add  local.tee $ip  local.set $anchor
                ;; Index the position 2 back (the match covered it), then read the next window. Reads at or
                ;; past matchLimit stay inside memory and end the loop at its test.
                local.get $ip  i32.const 2  i32.sub  local.tee $p  i32.load
                i32.const -1640531535  i32.mul  i32.const 20  i32.shr_u  i32.const 2  i32.shl
                local.get $p  i32.store
                local.get $ip  i32.load  local.set $seq
                br 3
              end
            end
          end
          ;; No match: step further the longer nothing matched, so incompressible data is passed over quickly.
          local.get $misses  i32.const 6  i32.shr_u  local.get $ip  i32.add  local.set $ip
          local.get $misses  i32.const 1  i32.add  local.set $misses
          local.get $ip  i32.load  local.set $seq
          br 0
        end
      end
    end
    ;; The last literals: a token with no match.
    local.get $end  local.get $anchor  i32.sub  local.set $lit
    local.get $op  local.set $tokenPos
    local.get $op  i32.const 1  i32.add  local.set $op
    local.get $lit  i32.const 15  i32.ge_u
    if
      i32.const 240  local.set $token
      local.get $lit  i32.const 15  i32.sub  local.set $rest
      block
        loop
          local.get $rest  i32.const 255  i32.lt_u  br_if 1
          local.get $op  i32.const 255  i32.store8
          local.get $op  i32.const 1  i32.add  local.set $op
          local.get $rest  i32.const 255  i32.sub  local.set $rest
          br 0
        end
      end
      local.get $op  local.get $rest  i32.store8
      local.get $op  i32.const 1  i32.add  local.set $op
    else
      local.get $lit  i32.const 4  i32.shl  local.set $token
    end
    local.get $tokenPos  local.get $token  i32.store8
    i32.const 0  local.set $n
    block
      loop
        local.get $n  local.get $lit  i32.ge_u  br_if 1
        local.get $op  local.get $n  i32.add
        local.get $anchor  local.get $n  i32.add  i64.load
        i64.store
        local.get $n  i32.const 8  i32.add  local.set $n
        br 0
      end
    end
    local.get $op  local.get $lit  i32.add
  )
)
