; Glue for Toni Baker's ZX81 draughts -- OURS (retrochess), NOT Toni Baker's.
;
; Part three of Toni Baker's "Mastering Machine Code on Your ZX81" (seed 003)
; prints three routines: SQUAREVAL (4DF1), EVALUATE (4E43) and WHAT (4E9F).
; Parts one and two, which held the rest of the program, are not in the seed.
; This file supplies what part three leaves unwritten, so that those three
; routines can choose a move on an emulated 16K ZX81:
;
;   TABLE    the four directions and the 2E end mark (4C97, where LD DE,TABLE
;            points; its contents are not printed)
;   GAME     the entry: the scan over the computer's pieces that jumps to
;            EVALUATE for each one, KPCHKNG (4DA0, where EVALUATE jumps when
;            a piece is done), CHOOSE (a seeded random choice among the
;            moves of equal priority that EVALUATE left on the stack), making
;            the chosen move, the computer's promotion (left by the author
;            as an exercise), and the game's end (no move left)
;   SHOW     printing the working board into the display file
;
; The person's move and its check are not here: the driver writes the whole
; position into the working board before each call (tapes/BAKER.md).
; Toni Baker's bytes are included unmodified from tapes/baker-draughts.bin
; (transcribed by scripts/transcribe-baker.py), so the image built from this
; file holds both; nothing here writes into 4DF1..4ED0.
;
; Build: scripts/build-tapes.sh (pasmo -I tapes, raw binary from 4C97):
; --equ mended=0 gives baker-draughts-16k.bin (Toni Baker's routines as
; printed), --equ mended=1 baker-draughts-mended-16k.bin (her routines with
; the errata of tapes/BAKER.md, and the exercises, src/baker-exercises.asm).
; Interface, board layout and reasons: tapes/BAKER.md "The glue".

; --- Toni Baker's addresses (derived in tapes/BAKER.md) --------------------
INITIAL         equ 4021h               ; LD (INITIAL),A = 32 21 40
SCANSQR         equ 4079h               ; LD (SCANSQR),DE = ED 53 79 40
LBASE           equ 407Bh               ; LD SP,(LBASE) = ED 7B 7B 40
WKBOARD         equ 403Ch               ; "left unchanged at 403C" (NEW ROM)
TABLE           equ 4C97h               ; LD DE,TABLE = 11 97 4C
KPCHKNG_AT      equ 4DA0h               ; JP Z,KPCHKNG = CA A0 4D
SQUAREVAL       equ 4DF1h
EVALUATE        equ 4E43h
BAKER_END       equ 4ED0h               ; last byte of WHAT

; --- ZX81 system variable --------------------------------------------------
D_FILE          equ 400Ch

; --- Piece codes: Toni Baker's, read from his bit tests (tapes/BAKER.md) ---
EMPTY           equ 80h                 ; CP 80: a black square
MAN_BIT         equ 7                   ; bit 7 set = man, clear = king
MINE            equ 3Ch                 ; computer (W): man BC, king 3C
HIS             equ 27h                 ; person (B): man A7, king 27
GUARD           equ 00h                 ; OURS: off-board bytes (not a piece,
                                        ; not EMPTY)

; --- The working board: OURS (the layout of part two is not printed) -------
; 32 squares in rows of four, a guard byte after every second row, so the
; four directions are +4, +5 (the computer's forward moves) and -5, -4.
; PDN square n, with the computer on 1..12 moving towards 32, lives at
; FIRSTSQ + (n-1) + (n-1)/8.  Guard bytes above and below cover a jump (two
; steps of 5) from any square.  The block starts at WKBOARD and ends before
; SCANSQR.  Where it sits, and the order of TABLE, keep SQUAREVAL's probe
; after its last direction (L + 5 - 2E, tapes/BAKER.md "The glue")
; off the board and off INITIAL: it lands on 4022..4044, the
; system variables from DF_SZ on and the top guard.
FIRSTSQ         equ WKBOARD + 15        ; 404B: square 1
LASTSQ          equ FIRSTSQ + 34        ; 406D: square 32
GHOST1          equ FIRSTSQ + 8         ; 4053
GHOST2          equ FIRSTSQ + 17        ; 405C
GHOST3          equ FIRSTSQ + 26        ; 4065
CROWN           equ FIRSTSQ + 31        ; 406A: square 29, the far row's first
BOARD_END       equ LASTSQ + 10         ; 4077: last guard byte

                if BOARD_END >= SCANSQR
                db WORKING_BOARD_RUNS_INTO_SCANSQR
                endif

; --- The display file (16K ZX81: 24 full lines of 32 + NEWLINE) ------------
LINE            equ 33

                org TABLE

; The directions, backward (bit 7 set, kings only) first, +5 last (see
; FIRSTSQ), then the 2E that ends the table for SQUAREVAL and EVALUATE.
; INC E walks it: it must not cross a 256-byte page, and does not.
                db 0FCh, 0FBh, 04h, 05h, 2Eh   ; -4 -5 +4 +5, end

; --- Cells the driver reads and writes ------------------------------------
RANDOM          db 0                    ; in: a random byte for CHOOSE
RESULT          db 0                    ; out: 0 moved, 1 no move
FROM            db 0                    ; out: low byte of the origin square
TO              db 0                    ; out: low byte of the landing square
OVER            db 0                    ; out: low byte of the captured
                                        ; square, 0 if the move is a step
DIR             db 0                    ; out: the direction of the move
COUNT           db 0                    ; out: moves of the top priority
PRIORITY        db 0                    ; out: that priority (80 = neutral)
PICK            db 0                    ; out: which of them was chosen

; ---------------------------------------------------------------------------
; GAME: choose and make the computer's move on the working board.
; In: the position in the working board (squares only; GAME rewrites the
; guards), RANDOM.  Out: RESULT, FROM, TO, OVER, DIR, COUNT, PRIORITY, PICK;
; the board after the move, printed into the display file.  Returns with RET
; to the caller, whatever EVALUATE did to SP on the way.
; ---------------------------------------------------------------------------
GAME            ld (LBASE),sp           ; EVALUATE restarts its list here
                call GUARDS
                ld hl,0
                push hl                 ; the empty list: priority 0, 0 steps
                ld b,h                  ; no moves on it
                ld hl,FIRSTSQ - 1       ; KPCHKNG steps to square 1 first
                jp KPCHKNG

; GUARDS: write the guard bytes around and inside the board.
GUARDS          ld hl,WKBOARD
                ld b,FIRSTSQ - WKBOARD
GUARD1          ld (hl),GUARD
                inc hl
                djnz GUARD1
                ld l,LOW (LASTSQ + 1)
                ld b,BOARD_END - LASTSQ
GUARD2          ld (hl),GUARD
                inc hl
                djnz GUARD2
                ld l,LOW GHOST1
                ld (hl),GUARD
                ld l,LOW GHOST2
                ld (hl),GUARD
                ld l,LOW GHOST3
                ld (hl),GUARD
                ret

                if mended = 0           ; baker-draughts-mended: CHOOSE and MAKE
                                        ; for moves of many steps are in
                                        ; src/baker-exercises.asm
; CHOOSE: B moves of equal priority lie on the stack under the list's
; header (steps, priority), each an (origin, direction) pair, the last one
; found nearest.  Pick number (RANDOM * B) / 256 of them.
CHOOSE          ld a,b
                ld (COUNT),a
                or a
                jr z,NOMOVE
                ld hl,1
                add hl,sp
                ld a,(hl)               ; the header's priority
                ld (PRIORITY),a
                ld a,(RANDOM)
                ld e,a
                ld d,0
                ld h,d
                ld l,d
MULTIPLY        add hl,de
                djnz MULTIPLY           ; H = RANDOM * COUNT / 256
                ld a,h
                ld (PICK),a
                ld l,h
                ld h,0
                add hl,hl
                inc hl
                inc hl
                add hl,sp               ; the chosen (origin, direction)
                ld a,(hl)
                inc hl
                ld c,(hl)
                ; fall into MAKE

; MAKE: move the piece on square A in direction C.  EVALUATE queues a
; capture exactly like a step (one step, origin and direction); it is a
; capture when the square in that direction holds a person's piece, since a
; step is only queued onto an EMPTY square.
MAKE            ld h,HIGH WKBOARD
                ld l,a
                ld (FROM),a
                ld a,c
                ld (DIR),a
                ld d,(hl)               ; the moving piece
                ld (hl),EMPTY
                xor a
                ld (OVER),a
                ld a,l
                add a,c
                ld l,a
                ld a,(hl)
                and 7Fh
                cp HIS
                jr nz,LAND
                ld (hl),EMPTY           ; the captured piece goes
                ld a,l
                ld (OVER),a
                add a,c
                ld l,a
LAND            ld a,l
                ld (TO),a
                cp LOW CROWN            ; the far row: the computer's
                jr c,PLACE              ; promotion, the author's exercise
                res MAN_BIT,d           ; crowned (a king has bit 7 clear)
PLACE           ld (hl),d
                xor a
                jr DONE
                else
PART            defl 1
                include "src/baker-exercises.asm"
                endif

NOMOVE          ld (FROM),a             ; A = 0
                ld (TO),a
                ld (OVER),a
                ld (DIR),a
                ld (PRIORITY),a
                ld (PICK),a
                inc a                   ; the game's end: no move left
DONE            ld (RESULT),a
                ld sp,(LBASE)           ; drop the list; our return address
                ; fall into SHOW, which returns to GAME's caller

; ---------------------------------------------------------------------------
; SHOW: print the working board in the top eight lines of the display file,
; the computer's side at the top: light squares blank (00), dark squares the
; board's own codes, which are ZX81 characters (80 black square, W and B,
; inverse for men).  Needs a full (16K) display file at (D_FILE).
; ---------------------------------------------------------------------------
SHOW            ld hl,(D_FILE)
                inc hl                  ; the first character of line 0
                ex de,hl
                ld hl,FIRSTSQ
                ld c,8                  ; rows left; row r = 8 - C
SHOWROW         ld b,4
                bit 0,c
                jr nz,SHOWODD           ; odd rows start with a dark square
SHOWEVEN        xor a
                ld (de),a
                inc de
                ld a,(hl)
                ld (de),a
                inc de
                inc hl
                djnz SHOWEVEN
                jr SHOWNEXT
SHOWODD         ld a,(hl)
                ld (de),a
                inc de
                inc hl
                xor a
                ld (de),a
                inc de
                djnz SHOWODD
                inc hl                  ; the guard after every second row
SHOWNEXT        push hl
                ld hl,LINE - 8
                add hl,de
                ex de,hl
                pop hl
                dec c
                jr nz,SHOWROW
                ret

                if $ > KPCHKNG_AT
                db GLUE_RUNS_INTO_KPCHKNG
                endif

; ---------------------------------------------------------------------------
; KPCHKNG ("keep checking"), where EVALUATE jumps when it has tried every
; direction of a piece: HL = 40xx, the piece's square; B = the list's length.
; Go on to the next of the computer's pieces, or to CHOOSE after square 32.
; ---------------------------------------------------------------------------
                org KPCHKNG_AT
KPCHKNG         inc l
                ld a,l
                cp LOW (LASTSQ + 1)
                jp z,CHOOSE
                ld a,(hl)
                and 7Fh
                cp MINE                 ; the computer's man or king
                jr nz,KPCHKNG
                jp EVALUATE             ; which comes back here

                if mended
PART            defl 3
                include "src/baker-exercises.asm"
                endif

                if mended
; ---------------------------------------------------------------------------
; ERRATUM 6 of baker-draughts-mended (tapes/BAKER.md "The errata"), OURS:
; "Check for danger and/or protection at destination square. This is
; necessary because a move into danger is bad" (seed 003, EVALUATE).  At
; 4E70 the moving piece still stands on its origin, so SQUAREVAL found no
; danger from a man that could jump back into the square it leaves (its
; "in danger" needs the square behind blank).  EVALUATE's CALL there comes
; here instead: the origin (40, C) reads EMPTY for that one call and gets
; its piece back after.  As SQUAREVAL, only A (the value) changes (and F,
; which SQUAREVAL changes too).  The text's admitted flaw (a king moving
; into danger counts 5, not 7) is left as printed.
; In: L the destination, H the direction, C the origin (EVALUATE's).
; ---------------------------------------------------------------------------
DESTVAL_AT      equ 4DDDh               ; src/baker-mended.asm calls it here
                if $ > DESTVAL_AT
                db GLUE_RUNS_INTO_DESTVAL
                endif
                org DESTVAL_AT
DESTVAL         push de
                push hl
                ld h,HIGH WKBOARD
                ld l,c                  ; the origin
                ld d,(hl)               ; the moving piece
                ld (hl),EMPTY           ; its square reads blank
                ex (sp),hl              ; HL as EVALUATE gave it
                call SQUAREVAL - 3      ; A: the destination's value
                ex (sp),hl
                ld (hl),d               ; the piece back on its square
                pop hl
                pop de
                ret
                if $ != SQUAREVAL - 3   ; it ends where SQUAREVAL begins
                db DESTVAL_DOES_NOT_END_BELOW_SQUAREVAL
                endif
                endif

                if $ > SQUAREVAL - 3 * mended
                db GLUE_RUNS_INTO_BAKER
                endif

                if mended = 0
; --- Toni Baker's routines, unmodified (tapes/baker-draughts.bin) ---------
                org SQUAREVAL
                incbin "baker-draughts.bin"
                else
; --- baker-draughts-mended: her routines with the errata ------------------
; (tapes/baker-draughts-mended.bin, from src/baker-mended.asm; SQUAREVAL
; three bytes lower, tapes/BAKER.md "The errata"), then the exercises: OURS
                org SQUAREVAL - 3
                incbin "baker-draughts-mended.bin"
                endif

                if $ != BAKER_END + 1
                db BAKER_IMAGE_HAS_THE_WRONG_LENGTH
                endif

                if mended
PART            defl 2
                include "src/baker-exercises.asm"
                endif
