; The exercises of Toni Baker's draughts, part three -- OURS (retrochess),
; NOT Toni Baker's, except ADDASTEP, which is her printed sketch byte for
; byte.  Included three times by baker-glue.asm with --equ mended=1, to fit
; the fourth K (4C97..4FFF, "we are allowed to go as far as 4FFF"): PART 1
; (CHOOSE) where the printed glue has its own, PART 3 (UNDO) between
; KPCHKNG and SQUAREVAL, PART 2 (JUMPED, MAKE, the cells) after WHAT, at
; 4ED1, where WHAT's last JR goes.
;
; The text leaves two additions to the reader (seed 003):
;  - "whether or not a computer's piece has reached the back row": MAKE
;    below crowns a man that lands on the far row, by comparing the low byte
;    of the landing square with the far row's first (CROWN), as the text's
;    hint says (the printed glue does the same for one step);
;  - multiple jumps: "the computer will not [make multiple jumps]. This
;    addition I leave you to write yourself", with two hints: ADDASTEP,
;    printed, which inserts step C of the current move into the stack, and
;    the two procedures for a move that "can be increased no more": "If C is
;    less than E then the current move is abolished; if C is equal to E, the
;    stack is left unchanged; if C is greater than E then the whole list of
;    moves on the stack except the current move is abolished."
;
; How a capture goes (JUMPED, entered from WHAT's last JR, which printed
; went to NEWPRI):
;  1. its priority is NEWPRI's (INITIAL - (SQUAREVAL(landing) - 5 or 7));
;  2. it is stored as the current move, under the list's header, as
;     NEWITEM and the swap at 4E93 store a move: [E][priority][initial
;     square][direction 1] ...;
;  3. from its landing square, the first direction of TABLE with a further
;     jump (forward only for a man; none once a man reaches the far row,
;     English rules) is inserted by ADDASTEP as direction C, and so on until
;     the move can be extended no more (ours: at a fork the first direction
;     of TABLE is taken; the text does not say);
;  4. the procedures decide, with C - 1 the steps of the current move and E
;     the list's: fewer, the current move is abolished; more, the rest of the
;     list is; equal, the priorities decide as at 4E7E (lower abolished,
;     equal kept, higher abolishes the rest; ours: the text's "left
;     unchanged" is for equal priority);
;  5. ours, the English rule the text does not state: a capture goes first.
;     A list of captures has priority FF in its header (JPRI holds the real
;     one), so every step EVALUATE weighs afterwards is forgotten at 4E84
;     (SBC HL,DE: no step reaches FF); the first capture abolishes a list of
;     steps.
;  6. the board is put back, and FORGETIT (4E99) goes on with the next
;     direction, as after any move.
; During 3 the moving piece's square reads EMPTY and each captured piece
; has 26h taken off (A7 -> 81, 27 -> 01: neither the person's nor empty), so
; no piece is jumped twice and a king may pass its own square; UNDO puts
; them back.


                if PART = 1
; ---------------------------------------------------------------------------
; CHOOSE (for moves of E steps): B moves of equal standing lie on the stack
; under the header (E, priority), each its initial square and E directions,
; the last one found nearest.  Pick number (RANDOM * B) / 256 of them.
; ---------------------------------------------------------------------------
CHOOSE          ld a,b
                ld (COUNT),a
                or a
                jp z,NOMOVE
                ld hl,0
                add hl,sp
                ld a,(hl)
                ld (STEPS),a
                inc hl
                ld a,(hl)               ; the priority, or CAPTURES
                cp CAPTURES
                jr nz,CHPRI
                ld a,(JPRI)
CHPRI           ld (PRIORITY),a
                ld a,(RANDOM)
                ld e,a
                ld d,0
                ld h,d
                ld l,d
MULTIPLY        add hl,de
                djnz MULTIPLY           ; H = RANDOM * COUNT / 256
                ld a,h
                ld (PICK),a
                ld b,a
                inc b
                ld a,(STEPS)
                inc a
                ld e,a                  ; DE: the size of a listed move
                ld hl,2
                add hl,sp
                jr PICKNEXT
PICKLOOP        add hl,de
PICKNEXT        djnz PICKLOOP           ; HL: the chosen move

                jp MAKE

                endif

                if PART = 2
FORGETIT        equ 4E99h               ; Toni Baker's: LD DE,(SCANSQR)

; ---------------------------------------------------------------------------
; JUMPED: A = SQUAREVAL(landing) - 5 or 7, C = the origin, L = the landing,
; H = the direction, B = the list's length, SP = the list's header.
; ---------------------------------------------------------------------------
JUMPED          ld d,a                  ; the priority, as NEWPRI (4E73)
                ld a,(INITIAL)
                sub d
                ld (PRI),a
                ld a,l
                ld (SQ),a
                sub h
                ld e,a                  ; the piece jumped
                ld a,c
                ld (ORIGIN),a
                ld l,c                  ; H direction 1, L initial square
                ex (sp),hl              ; stored under the header:
                push hl                 ; [E][priority][initial][dir 1]
                inc b                   ; one more move on the list
                ld h,HIGH WKBOARD
                ld l,c
                ld a,(hl)
                ld (PIECE),a
                ld (hl),EMPTY           ; lifted for the search
                ld l,e
                ld a,(hl)
                sub 26h                 ; jumped
                ld (hl),a
                ld c,2                  ; the text's C: step 2 is examined

; Can the move go on from SQ?  TABLE: -4 -5 +4 +5; a man uses the last two.
NEXTSTEP        ld hl,TABLE
                ld d,HIGH WKBOARD
                ld a,(PIECE)
                rla                     ; carry: a man
                jr nc,TRYDIR
                ld a,(SQ)
                cp LOW CROWN            ; a man on the far row is crowned:
                jr nc,ENDMOVE           ; his move ends there
                inc l
                inc l
TRYDIR          ld a,(SQ)
                ld e,a
                ld a,(hl)               ; a direction
                inc l
                cp 2Eh
                jr z,ENDMOVE            ; no further jump
                add a,e
                ld e,a
                ld a,(de)
                and 7Fh
                cp HIS                  ; the person's piece next,
                jr nz,TRYDIR
                dec l
                ld a,(hl)
                inc l
                add a,e
                ld e,a
                ld a,(de)
                cp EMPTY                ; and the square beyond it empty
                jr nz,TRYDIR
                ld a,e
                ld (SQ),a
                dec l
                ld h,(hl)               ; H: the direction of step C
                ld l,e                  ; L: the square it reaches

; ADDASTEP, Toni Baker's, as printed (seed 003): direction C (H) goes in
; after direction C-1 of the current move; C is increased.
ADDASTEP        push bc
                push de
                push hl
                ld a,08h
                add a,c
                ld hl,0000h
                ld b,h
                ld c,a
                add hl,sp
                ld d,h
                ld e,l
                dec de
                ldir
                dec sp
                pop hl
                ld a,h
                ld (de),a
                pop de
                pop bc
                inc c

                ld a,l
                sub h
                ld l,a
                ld h,HIGH WKBOARD
                ld a,(hl)
                sub 26h                 ; jumped
                ld (hl),a
                jr NEXTSTEP

; The move can be increased no more: C - 1 steps.  The header is at SP.
ENDMOVE         ld hl,1
                add hl,sp
                ld a,c
                dec a
                ld e,a                  ; the current move's steps
                ld a,(hl)               ; the list's priority
                dec hl                  ; HL: the list's E
                inc a
                jr nz,ABOLISHREST       ; a list of steps: the capture goes
                ld a,e                  ; first (ours, English rules)
                cp (hl)
                jr c,ABOLISHCUR         ; "C is less than E"
                jr nz,ABOLISHREST       ; "C is greater than E"
                ld a,(JPRI)
                ld d,a
                ld a,(PRI)
                cp d
                jr c,ABOLISHCUR         ; equal steps, a lower priority
                jp z,UNDO               ; "the stack is left unchanged"

; "abolishing the whole list except for the current move ... loading HL
; with the position within the stack of 'direction C', DE with the contents
; of the variable LBASE, and then using LDDR": the header and the current
; move, C + 2 bytes, go up to the list's base; our LBASE is the stack
; pointer of the empty list, so the list's first byte is LBASE - 1.
ABOLISHREST     ld (hl),e               ; the header: E steps,
                inc hl
                ld (hl),CAPTURES        ; a list of captures
                ld a,(PRI)
                ld (JPRI),a
                ld h,0
                ld b,h
                ld l,c
                inc hl
                add hl,sp               ; SP + C + 1: the last direction
                ld de,(LBASE)
                dec de
                inc c
                inc c
                lddr
                ex de,hl
                inc hl
                ld sp,hl                ; the new list: one move
                inc b
                jp UNDO

; "To abolish the current move is simple - DE is popped, the stack pointer
; is then incremented by the exact number of bytes, and DE is pushed back
; again": C bytes, its initial square and C - 1 directions.
ABOLISHCUR      pop de
                ld h,0
                ld l,c
                add hl,sp
                ld sp,hl
                push de
                dec b

                jp UNDO

; MAKE: the piece on the initial square moves, step by step in the
; move's directions: a capture where the person's piece stands (a step is
; only listed onto an EMPTY square), the landing squares into PATH; a man
; that ends on the far row is crowned (the author's exercise).
MAKE            ld a,(hl)
                ld (FROM),a
                inc hl
                ex de,hl                ; DE: the directions
                ld h,HIGH WKBOARD
                ld l,a
                ld c,(hl)               ; the moving piece
                ld (hl),EMPTY
                xor a
                ld (OVER),a
                ld a,(STEPS)
                ld b,a
                push hl
                ld hl,PATH
                ex (sp),hl              ; the stack: where PATH goes on
MSTEP           ld a,(de)
                inc de
                ld (DIR),a
                add a,l
                ld l,a
                ld a,(hl)
                and 7Fh
                cp HIS
                jr nz,MLAND             ; a step
                ld (hl),EMPTY           ; the captured piece goes
                ld a,(OVER)
                or a
                jr nz,MBEYOND
                ld a,l
                ld (OVER),a             ; the first one
MBEYOND         ld a,(DIR)
                add a,l
                ld l,a
MLAND           ld a,l
                ex (sp),hl
                ld (hl),a
                inc hl
                ex (sp),hl
                djnz MSTEP
                pop de
                ld (TO),a
                cp LOW CROWN            ; the far row: the computer's
                jr c,MPLACE             ; promotion, the author's exercise
                res MAN_BIT,c
MPLACE          ld (hl),c
                xor a
                jp DONE


; --- Cells (the driver reads STEPS and PATH) ------------------------------
STEPS           db 0                    ; out: steps of the move made
PATH            ds 12                   ; out: the landing square of each step
PIECE           db 0                    ; the piece that captures
ORIGIN          db 0                    ; its square (EVALUATE's C)
SQ              db 0                    ; where the move stands now
STEPDIR         db 0                    ; the direction being tried
PRI             db 0                    ; the current move's priority
JPRI            db 0                    ; the priority of a list of captures
CAPTURES        equ 0FFh                ; that list's header priority

                if $ > 4FFFh
                db EXERCISES_RUN_PAST_4FFF
                endif
                endif

                if PART = 3
; The board as it was; C the origin again, for NXTMRND.
UNDO            ld h,HIGH WKBOARD
                ld a,(ORIGIN)
                ld c,a
                ld l,a
                ld a,(PIECE)
                ld (hl),a
                ld l,LOW FIRSTSQ
UNDO1           ld a,(hl)
                and 7Fh
                dec a                   ; 81 or 01: a piece jumped
                jr nz,UNDO2
                ld a,(hl)
                add a,26h
                ld (hl),a
UNDO2           inc l
                ld a,l
                cp LOW (LASTSQ + 1)
                jr nz,UNDO1
                jp FORGETIT             ; LD DE,(SCANSQR) / JR NXTMRND
                endif
