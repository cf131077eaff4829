; ChesSkelet -- a chess program for the 48K ZX Spectrum by Alex Garcia (2019),
; reconstructed for retrochess from the author's own dissection (seed 001,
; "ChesSkelet /tseske'let/ -- The dissection").  The author's code, data
; layout, labels and comments are kept as printed in the dissection; every
; line that the dissection does not print is marked "GAP" and explained in
; tapes/CHESSKELET.md.  Nothing here was taken from any other source.
;
; Build (scripts/build-tapes.sh):
;   pasmo --equ feamod=1 --equ gramod=1 chesskelet.asm chesskelet.bin
;   pasmo --equ feamod=0 --equ gramod=1 chesskelet.asm chesskelet-lite.bin
;   pasmo --equ feamod=0 --equ gramod=1 --equ genaft=1 chesskelet.asm \
;         chesskelet-published.bin   (ours: the published games' build)
;
; The ROM is never part of this program: it calls three ROM entry points
; (CHAN-OPEN, CL-ALL through RST 16's channel, PRINT-OUT through RST 16) and
; reads LAST_K, which the ROM's 50 Hz interrupt fills.

; ---------------------------------------------------------------------------
; Build options (set on the pasmo command line with --equ; defaults below
; are the ones the dissection prints).
; debmod: 0 = no, 1 = yes (debug board; NOT reconstructed, see notes)
; gramod: 0 = minimal interface, 1 = basic interface
;         (2 = full interface is not described by the dissection)
; feamod: 0 = no features, 1 = all features
; ---------------------------------------------------------------------------

if defined gramod
else
gramod          equ 0
endif
if defined feamod
else
feamod          equ 0
endif
; genaft: 0 = the listing as printed; 1 = the reconstruction of the build
; behind the published games (chapter 12): genlis also runs after each move
; is made (aftdes), so the evaluation reads the opponent's attacks in the
; current position (tapes/CHESSKELET.md, "ChesSkelet as it played").  Not an
; option of the dissection: ours.
if defined genaft
else
genaft          equ 0
endif

; code origin -- GAP: the dissection gives none.  Below every data page, so
; that one CODE block covers code and data, and RAMTOP (CLEAR) can protect
; it all.
origin          equ $7B00

; ROM memory addresses
clescr          equ 3503                ; CL-ALL, clear screen
laskey          equ 23560               ; LAST_K system variable
chaope          equ $1601               ; GAP: CHAN-OPEN, used by prosta

; memory micro-pages (256B, typically H register) used for simple memory access
auxsth          equ $7D
piearh          equ $7E
movlih          equ $7F
boasth          equ $80
boaath          equ $81
boaoph          equ $82
canlih          equ $83

boaopo          equ $8200               ; reversed attacked squares board
canlis          equ $8300               ; candidate move list

                org origin

; ---------------------------------------------------------------------------
; start-up: open the upper screen channel, then fall into the main loop
; ---------------------------------------------------------------------------
prosta          ld a, 2                 ; 2 = upper screen.
                call chaope             ; open channel

; legal moves generation (3B) -----------------------------------------
befmov
aftmov                                  ; GAP: 's' lands here (see notes)
                call genlis             ; candidate move list, used for both sides

; switch sides on every loop (6B+1B) ----------------------------------
whomov          ld l, h                 ; (H)L: $7F7F = movlih + gamsta, ++
                ld a, (hl)              ; load state
                xor h                   ; (@johan_koelman) switch turn: bla=0, whi=1
                ld (hl), a              ; save state back in memory
if feamod>0
                jp z, blamov
else
                jr z, blamov            ; if 0, jump to black moves, jp maybe
endif

                ; clear screen (3B)
whimov          call clescr             ; ROM routine set screen mode

; ---------------------------------------------------------------------------
; print the board (chapter 5)
; ---------------------------------------------------------------------------
priboa                                  ; A, B = 0 at this point
                ; initialization (4B)
                ld h, boasth            ; H(L)= $80, L always 0, load board ++
                ld d, piearh            ; D(E): piece array pointer, E o/w later

priloo          ; print colored squares (8B)
if gramod>0                             ; opt: print colored squares
                ld a, 19                ; set paper ASCII code
                rst 16                  ; print value
                ld a, c                 ; (@MstrBlinky) C is always $21
                inc c                   ; change C parity
                and %00000001           ; keep Ab0, alternatively 0/1
                rst 16                  ; print value
endif

                ; print piece (10B)
                ld a, (hl)              ; load piece
                and %00100000           ; keep color, pih
                ld b, a                 ; Bb5: isolate piece color
                ld e, (hl)              ; load piece
                res 5, e                ; uncolor, pih
                ld a, (de)              ; load piece character
                sub b                   ; capitalize (-32) only for white pieces
                rst 16                  ; print piece

                ; next square, end of rank/board detection (15B+1B)
                inc l                   ; next square
                jp m, pricoo            ; (@johan_koelman) end of 16x8 board, A=128?
                ld a, l                 ; (@MstrBlinky)
                and $08                 ; 8 if end of rank, 0 other cases
                jr z, priski            ; skip if not end of the rank
                add a, l                ;
                ld l, a                 ; return result to L
                ld a, 13                ; A= <CR>
                rst 16                  ; print char
if gramod>0                             ; opt: print colored squares, end of the rank
                inc c                   ; change C parity
endif
priski          jr priloo               ; GAP: the loop's jump back

; print coords (28B+6B)--------------------------------------------------------
pricoo                                  ; (@MstrBlinky simplified it)
if gramod>0
                ld bc, $0709            ; B: loop count, C: fixed rank/col
nextce          ld a, $16               ; ASCII control code for AT
                rst 16                  ; print it
                ld a, b                 ; set rank
                rst 16                  ; print it
                ld a, c                 ; set column
                rst 16                  ; print it
                ld a, '8'               ; base rank
                sub b                   ; decrease rank character (8..1)
                rst 16                  ; print rank value
                ld a, $16               ; ASCII control code for AT
                rst 16                  ; print it
                ld a, c                 ; set rank
                rst 16                  ; print it
                ld a, b                 ; set column
                rst 16                  ; print it
                ld a, 'a'               ; base column character
                add a, b                ; increase rank character (a..h)
                rst 16                  ; print rank value
                dec b                   ; loop 8 times
                jp p, nextce            ;
endif
                ld a, 13                ; A: set <CR> ASCII code
                rst 16                  ; prints it to go to the next line for input
                ld a, '?'               ; set "?" ASCII code
                rst 16                  ; print it

; ---------------------------------------------------------------------------
; white moves: read the move from the keyboard (chapter 6)
; ---------------------------------------------------------------------------
                ; 4 times loop for coord input (3B)
                ld b, 4                 ; loop count
                dec d                   ; D(E)= $7D =auxsth, E always 0 ++

                ; read key from keyboard loop (8B)
realoo          ld hl, laskey           ; LASTKEY system variable ++
                xor a                   ; A=0
                ld (hl), a              ; reset LASTKEY, two birds with 1 stone
wailoo          add a, (hl)             ; load latest value of LASTKEY.
                jr z, wailoo            ; loop until a key is pressed.

                ; skip move/switch sides (4B)
if feamod>0                             ; opt: special move, switch sides to play black
                cp 's'                  ; if "s" pressed at any time
                jp z, aftmov            ; skip white's move, ### jr maybe
endif

                ; save pressed key and print it (5B)
                inc de                  ; (@MstrBlinky) next char, E = 1 to 5
                ld (de), a              ; save char in string
                rst 16                  ; print it
                djnz realoo             ; loop for 4 input chars

movchk          ex de, hl               ; (@MstrBlinky routine) DE=end of input string
movloo          ld a, 56                ; rank calc = 8-(rank input-48) = 56-(HL)
                sub (hl)                ; A= 56 - (HL)
                rla                     ; move it to high nibble (x16)
                rla                     ;
                rla                     ;
                rla                     ;
                dec hl                  ; (@MstrBlinky) run backwards through string
                add a, (hl)             ; rank + column (not 0-7 column)
                sub 'a'                 ; make it a 0-7 column
                ld c, b                 ; slide results through B and C
                ld b, a                 ; at end of 2nd loop everything is in place
                dec l                   ; (@MstrBlinky) beginning of input string?
                jr nz, movloo           ; if not, loop again

if feamod>0
                ; validity check: is the typed move in the candidate list?
seamov          ld hl, canlis           ; canli pointer ++
                ld a, (hl)              ; number of candidates
sealoo          ld d, (hl)              ; origin candidate move
                inc hl                  ; next byte
                ld e, (hl)              ; target candidate move
                inc hl                  ; next byte, for next loop
                ex de, hl               ; candidate pair, DE: HL-canli pointer
                or a                    ; reset carry
                sbc hl, bc              ; compare input move with cand. move (Z)
                ex de, hl               ; revert back, canli pointer
                jr z, aftsid            ; move match: jump out. ready to move
                                        ; B (origin sq), C (target sq) ready here
                dec a                   ; count down
                jr nz, sealoo           ; loop until canli covered
                jp whimov               ; if not found, back to move input, jp maybe
else
                jr aftsid               ; GAP: no validity check, skip the chooser
endif

; ---------------------------------------------------------------------------
; black moves: choose the best candidate (chapters 7 and 8)
; ---------------------------------------------------------------------------
blamov
chomov          ; preparations (7B)
                ld hl, canlis           ; candidate list. No H reuse ++
                ld b, (hl)              ; number of candidates at position 0
                ld c, l                 ; C=0, maximum valuation reset
                inc hl                  ; skip 2 bytes to first candidate in list
                inc hl                  ;

choloo          ; loop through candidates (6B)
                ld d, (hl)              ; D: origin candidate square
                inc hl                  ; next candidate byte
                ld e, (hl)              ; E: target candidate square
                inc hl                  ; next candidate byte
                push bc                 ; BC released
                push hl                 ; HL is different from here

                ; pieces valuation
                ; pieces collection (8B)
evatap          ld h, boasth            ; board base ++
                ld l, e                 ; target square
                ld b, (hl)              ; black piece value
                ld l, d                 ; origin square
                ld c, (hl)              ; white piece value
                res 5, c                ; uncolor white piece, pih

                ; origin attacked square (7B)
evaato          ld a, b                 ; target piece always counts
                ld h, boaoph            ; H(L): attacked board base, L: unchanged ++
                bit 7, (hl)             ; origin square attacked?
                jr z, evaatt            ; not attacked, skip counting origin piece
if feamod=1                             ; opt: rows 2 do not move even if attacked
                ld a, d                 ; 0rrr0ccc, add origin square
                and $70                 ; filter ranks
                cp $60                  ; is rank 6?
                ld a, b                 ; target piece always counts
                jr z, evaexi            ; skip this move
endif
                ; count origin piece (1B) if attacked, general case
evaatc          add a, c                ; A: 00pppppp, count white

                ; target attacked square (6B)
evaatt          ld l, e                 ; H(L): point at target square
                bit 7, (hl)             ; target square attacked?
                jr z, skiato            ; if target not attacked, skip
                sub c                   ; if target attacked, count white out

                ; compensate + prioritize piece valuation (6B)
skiato          ld h, $20               ; prepare H for later rotation and use for A
                add a, h                ; A: 00pppppp, compensate=K+1, pih
                rlca                    ; leave space for square weight
                rlca                    ; A: pppppp00, piece addition is 5 bits
                ld b, a                 ; B: piece addition value

evacol          ld a, e                 ; A: 0rrr0ccc
                ; these two values below can be tuned for different opening schemes
if feamod>0
                add a, 2                ; A: 0rrr0ccc
                and 5                   ; A: 00000ccc
else
                inc a                   ; A: 0rrr0ccc
                and 4                   ; A: 00000cc0 (weight: 0,0,0,4,4,4,4,0)
endif

                ; ranks weight (ranks weight is 8..1, aiming for board's end)
evarnk          add hl, hl              ; HL: 00100000 0rrr0ccc (before)
                add hl, hl              ;
                add hl, hl              ; HL: 000000rr r0ccc000 (after)
                sub h                   ; A:  00000cww (w=r+c)
                add a, b                ; total value: pieces + weight

evaexi          pop hl                  ; recover canli
                pop bc                  ; recover previous maximum value
                cp c                    ; compare with current maximum
                jr c, chonoc            ; if current eval (A) <= max eval (C), skip
                ld c, a                 ; update best evaluation
                pop af                  ; remove old maximum to avoid cascades in stack
                                        ; ### initial push to compensate?
                push de                 ; push best candidates so far
chonoc          dec b                   ; decrease loop counter 2 by 2.
                djnz choloo             ; loop through all candidates (canto)
                pop bc                  ; recover saved values (B: origin, C: target)

; ---------------------------------------------------------------------------
; making the move, for both sides (chapter 9)
; ---------------------------------------------------------------------------
aftsid          ld h, boasth            ; point at board (canlih=$83 before) ++
                ld l, b                 ; point at origin square
if feamod>0
                ; castling: move the rook, the king moves below (D=0 here)
casroo          ld a, (hl)              ; origin piece
                add a, b                ; + origin square
                sub c                   ; - target square
caslon          cp $38                  ; $36(king) + $74(ori) - $72(tar)= $38, pih
                jr nz, cassho           ; no long castling
                ld l, $70               ; long castling rook square (a1)
                ld (hl), d              ; erase rook (D=0 here)
                ld l, $73               ; rook destination (d1)
                ld (hl), $25            ; move rook, pih
cassho          cp $34                  ; $36(king) + $74(ori) - $76(tar)= $34, pih
                jr nz, casend           ; no short castling
                ld l, $77               ; short castling rook square (h1)
                ld (hl), d              ; erase rook (D=0 here)
                ld l, $75               ; rook destination (f1)
                ld (hl), $25            ; move rook, pih
casend
                ; promotion to queen, and the origin square emptied
                ld a, c                 ; A: 0rrr0ccc
                and %01110000           ; A: 0rrr0000
                add a, (hl)             ; A: 0rrxpppp
                cp $22                  ; white pawn ($22) on rank 8 ($00), pih
                ld l, b                 ; restore origin square
                ld d, (hl)              ; original piece
                ld (hl), 0              ; write origin piece
                jr nz, aftdes           ; if not a pawn, skip
                ld d, $27               ; make piece a queen, pih
else
                ld d, (hl)              ; D: get origin piece
                ld (hl), 0              ; write origin piece
endif
                ; write target square with origin piece (5B)
aftdes          ld l, c                 ; (H)L: target square
                ld (hl), d              ; GAP: the piece lands on the target
if genaft>0
                ; OURS (genaft=1, the published games' build): the mover's
                ; list and attack board made again in the position after its
                ; move (genlis takes H = $80 and returns H = $7F, as revboa's
                ; inc h needs); the next befmov hands that board, rotated,
                ; to the other side's evaluation.  With it this block is the
                ; "(5B)" its comment gives (3B without).
                call genlis             ; OURS: attacks of the current position
else
                dec h                   ; GAP: H = $7F, as revboa's inc h needs
endif

revboa          ; push full board to stack (7B)
                inc h                   ; H = $80 = boasth ++
                ld l, h                 ; (H)L: end of board. trick: start from $8080
revlo1          dec l                   ; countdown squares
                ld a, (hl)              ; read piece
                push af                 ; copy piece to to stack
                jr nz, revlo1           ; loop down to beginning of the board

                ; collect board back in reverse order + switch color (15B)
                ld l, $78               ; (H)L: end of board again
revlo2          pop af                  ; collect piece from stack
                or a                    ; is it an empty square?
                jr z, revski            ; if yes, skip
                xor %00100000           ; otherwise, reverse color (b5), pih
revski          dec l                   ; countdown squares
                ld (hl), a              ; piece back into board
                jr nz, revlo2           ; loop until beginning of board
                jp befmov               ; back to white move, too far for jr

; ---------------------------------------------------------------------------
; genlis: candidate move list and attacked squares board (chapters 10, 11)
; ---------------------------------------------------------------------------
genlis
bacata          ; backup attack board in reverse order, used in evaluation (13B)
                ld l, $FF               ; (H)L = $80FF (boaata-1), H always $80
                ld de, boaopo + $78     ; DE: same thing, 1B passed end of board
bacloo          inc hl                  ; HL: increase 16b counter to hop to next page
                dec e                   ; E:  decrease 8b counter to hit Z flag
                ld a, (hl)              ; load attack status
                ld (hl), 0              ; clear attack status, no alternative!
                ld (de), a              ; backup attack status
                jr nz, bacloo           ; loop down to square $00
                                        ; exit values: DE=$8200, HL=$8177

                ; prepare environment (4B)
                inc d                   ; D= $83= canlih
                xor a                   ; reset
                ld (de), a              ; cantot= 0
                ld b, l                 ; B= L = 77, SQUARE COUNT

                ; read piece from board (4B)
squloo          ld h, boasth            ; H: board base ++
                ld l, b                 ; point at current loop square
                ld a, (hl)              ; read piece from board
if feamod>0
                ; castling: a white king on e1 may go to c1 and g1
kincas          ld l, a                 ; save A (can't use push AF, flags lost)
                add a, b                ; A: 0rrr0xxx + 000ppppp (uncolored white p.)
                cp $AA                  ; king($36) at E1($74)= $AA, pih
                ld a, l                 ; recover A
                jr nz, kinend           ; if no match, skip adding legal move
                ld c, $72               ; E1-C1 move, rook's move missing
                call legadd             ; add king's move
                ld c, $76               ; E1-G1 move, rook's move missing
                call legadd             ; add king's move and go on with king's moves
kinend
endif
                ; get move type and pointer to move list (6B)
squgon          dec h                   ; H(L)= movlih, moves vector base ++
                add a, a                ; x4, each piece vector is 4B long
                add a, a                ;
                ld l, a                 ; (H)L points at the move vector now
                ld d, 2                 ; 2 submoves per piece

subloo          ; byte 1 - move type (5B)
                ld a, (hl)              ; move type loaded
                or a                    ; =cp 0, 2nd move type not used case
                                        ; black/empty: move type=0 leads here
                jr z, squexi            ; ---v exit: square is done
                ld e, a                 ; E: MOVE TYPE (B,C,D used here)
if feamod>0
                ; pawn on its starting rank: radius 1 -> 2
genpw2          add a, b                ; piece square + move type
                and %11111000           ; masked with relevant bits
                cp $88                  ; $28(str.pawn)+$60(rnk 6) ### univocal
                jr nz, skppw2           ; if not, skip
                inc e                   ; increase radius: 1 -> 2
skppw2
endif
                ; byte 2 - movlis delta (3B)
                inc hl                  ; next piece sub-entry
                push hl                 ; Save HL for 2nd loop
                ld l, (hl)              ; pointer to move delta

vecloo          ; vector read (8B)
                ld c, b                 ; TARGET SQUARE init
                ld a, (hl)              ; vector delta
                or a                    ; =cp 0
                jr z, vecexi            ; ---v exit: vectors end with 0, next sq.
                push hl                 ; save current delta
                push de                 ; save move type + radius
                                        ; E: variable radius within loop
                ld d, a                 ; D: store delta within loop

celloo          ; prepare x88 check (7B)
                ld a, d                 ; delta loaded
                add a, c                ; current target (sq. + delta)
                ld c, a                 ; current target
                and $88                 ; 0x88, famous OOB trick
                jr nz, vecnex           ; ---v exit: OOB, next vector
                ; read target square (3B)
                inc h                   ; H(L)= $80 = boasth ++
                ld l, c                 ; point at target square
                ld a, (hl)              ; read target square content
                ; mark attacked ### str. pawn marked attacked
                inc h                   ; H(L)= $81 = boaath ++
                ld (hl), h              ; mark attacked ($81)
                dec h                   ; H(L)= $80 = boasth ++
                dec h                   ; H(L)= $79= movlih ++
                ; target is white (4B)
                bit 5, a                ; is it white?, pih
                jr nz, vecnex           ; ---v exit: WHITE b4=1, next vector
                ; target not white (3B)
                or a                    ; =cp 0, is it empty?, pih
                jr z, taremp            ; if not 0, it's black: legal, no go on
tarbla          ; target is black (7B)
                bit 5, e                ; special move: pawn straight check
                jr nz, vecnex           ; ---v exit: no str. cap., next vector
                ld e, a                 ; radius=0 (=<8, canonical: ld e, 0)
                call legadd             ;
taremp          ; target is empty (14B)
                bit 4, e                ; special move: pawn on capture check
                jr nz, vecnex           ; ---v exit: no diagonal w/o capture
                                        ; next vector
                bit 3, e                ; GAP: radius still >= 8, so empty target
                call nz, legadd         ; GAP: add the move to the empty square
                dec e                   ; decrease radius
legadj          bit 3, e                ; if radius < 8 (Cb3=0), radius limit
                jr nz, celloo           ; ---^ cell loop

vecnex          ; next vector preparation (5B)
                pop de                  ; DE: recover move type + radius
                pop hl                  ; HL: recover current vector
                inc hl                  ; HL: next vector
                jr vecloo               ; ---^ vector loop

vecexi          ; next square preparation (5B)
                pop hl                  ; HL: recover pointer to sub-move list
                inc hl                  ; HL: next byte, point at 2nd sub-move
                dec d                   ; 2 sub-move iterations loop control
                jr nz, subloo           ; if not 2nd iteration, repeat loop
                ; end of loop (2B)
squexi          djnz squloo             ; ---^ squares loop
                ret

; ---------------------------------------------------------------------------
; legadd -- GAP: not printed.  Appends the move B (origin) -> C (target) to
; the candidate list.  The count at canlis+0 is kept in bytes (2 per move),
; as chomov's "dec b / djnz" and the "second byte is always 0" of seamov
; require.  Changes only the flags: kincas needs A, B and H afterwards, the
; cell loop needs B, C, D, E and H.
; ---------------------------------------------------------------------------
legadd          push hl                 ; GAP
                ld hl, canlis           ; GAP: count byte
                inc (hl)                ; GAP: count += 2 (bytes)
                inc (hl)                ; GAP
                ld l, (hl)              ; GAP: (H)L = canlis + new count
                ld (hl), b              ; GAP: origin square
                inc l                   ; GAP
                ld (hl), c              ; GAP: target square
                pop hl                  ; GAP
                ret                     ; GAP

codend

; ---------------------------------------------------------------------------
; data (chapters 3, 4, 7, 10 -- the final layout)
; ---------------------------------------------------------------------------

; Memory page: 7D00h: input string typed by the human, at $7D01-$7D04
                org auxsth*256
auxstr

; Memory page: 7E00h: used to convert values to pieces.  Laid out for the
; final piece values P=2 N=3 B=4 R=5 Q=7 K=22 (GAP: chapter 4 prints the
; array for the older values P=1..Q=5, K=8).
                org piearh*256
if gramod=0                             ; opt: space or dot depending on the size
piearr          defb '.'
else
piearr          defb ' '
endif
                org piearh*256 + 2
                defm "pnbr"             ; pawn=2, knight=3, bishop=4, rook=5
                org piearh*256 + 7
                defb 'q'                ; queen=7
                org piearh*256 + 22
                defb 'k'                ; king=22

; Memory page: 7F00h: sub-moves and vectors.  $7F00-$7F87 stay 0: black
; pieces and empty squares (x4) read move type 0 there.
                org $7F7F
gamsta          defb 0                  ; board status: 0000000 / turn (B=0, W=1)

                org $7F88               ; pawn: $22x4=$84
; piece, move type, vector list delta address (18B)
; move type / 0 / 0 / pawn straight / pawn diagonal / DDDD (real radius + 7)
movlis
pawgen          defb $28, $E3           ; pawn straight
                defb $18, $E7           ; pawn capture
                org $7F8C
knigen          defb $08, $EA           ;
                org $7F90
bisgen          defb $0E, $E5           ; bishop
                org $7F94
roogen          defb $0E, $E0           ; rook
                org $7F9C
quegen          defb $0E, $E0           ; queen
                defb $0E, $E5           ;
                org $7FD8
kingen          defb $08, $E0           ; king: $($16+$20)x4=$D8
                defb $08, $E5           ;

                org $7FE0               ; vectors start at: $7FE0 (arbitrary)
; (y, x) move delta pairs (16B)
veclis
strvec          defb $FF, $01           ; +0, straight vectors
                defb $10, $F0           ; +3, straight pawn, last half line
                org $7FE5
diavec          defb $0F, $11           ; +5, diagonal vectors
                defb $EF, $F1           ; +7, diagonal pawn
                org $7FEA
knivec          defb $E1, $F2           ; +10, knight vectors
                defb $12, $21           ; knight moves listed clockwise
                defb $1F, $0E           ;
                defb $EE, $DF           ;

; Memory page: 8000h: the board, 16x8, squares 0rrr0ccc, pieces 00cppppp
; pppp (value): pawn=2, knight=3, bishop=4, rook=5, queen=7, king=22
; c (color): white=1, black=0.  Converted from chapter 4's older values.
                org $8000
boasta          defb $05, $03, $04, $07, $16, $04, $03, $05   ; <--8
                org $8010
                defb $02, $02, $02, $02, $02, $02, $02, $02   ; <--7
                org $8060
                defb $22, $22, $22, $22, $22, $22, $22, $22   ; <--2
                org $8070
                defb $25, $23, $24, $27, $36, $24, $23, $25   ; <--1
boaend

; Pages 8100h (boaata, attacked squares), 8200h (boaopo, reversed attacked
; squares) and 8300h (canlis, candidate moves) are not on the tape: they are
; zero after a reset, as the author relies on for the empty squares.
