; Toni Baker's SQUAREVAL, EVALUATE and WHAT (seed 003, part three) as the
; text intends them: her instructions, labels and comments as printed, with
; the listing's resolutions (tests/fixtures/baker/resolutions.txt), the fix
; of the deliberate mistake, and the ERRATA marked "; ERRATUM n" below and
; tabled in tapes/BAKER.md "The errata".  Everything else is her bytes: a
; test compares this image with tapes/baker-draughts.bin byte for byte.
;
; ERRATUM 1 needs three more bytes, so SQUAREVAL starts three bytes lower
; (4DEE, not 4DF1) and ends where it did (4E42): EVALUATE and WHAT keep
; their addresses, and their CALL SQUAREVAL change (ERRATUM 4).  The call
; for a step's destination (4E70) goes to DESTVAL instead (ERRATUM 6), our
; 17 bytes just below SQUAREVAL in the glue, which calls SQUAREVAL with the
; moving piece's square reading blank: "a move into danger is bad".
; The last line of WHAT is the entry to the multiple-jump exercise (OURS,
; not an erratum: the text leaves that addition to the reader).
;
; Build: scripts/build-tapes.sh (pasmo, raw binary from 4DEE) into
; tapes/baker-draughts-mended.bin, which tapes/src/baker-glue.asm includes
; when assembled with --equ mended=1.

INITIAL         equ 4021h
SCANSQR         equ 4079h
LBASE           equ 407Bh
WKBOARD         equ 403Ch
TABLE           equ 4C97h
KPCHKNG         equ 4DA0h
JUMPED          equ 4ED1h               ; OURS: the multiple-jump exercise
DESTVAL         equ 4DDDh               ; ERRATUM 6: SQUAREVAL with the
                                        ; origin blank (src/baker-glue.asm)

                org 4DEEh               ; ERRATUM 4: 4DF1 as printed
SQUAREVAL       push bc
                push de
                push hl
                ld b,00h
STARTOFF        ld de,TABLE
NOWT            ld a,(de)
                ld c,a
                sub 2Eh
                jr z,EXIT
                inc e
                pop hl
                push hl
                ld h,40h
                ld a,l
                add a,c
                bit 0,b
                jr nz,LA
                add a,c
LA              ld l,a
                ld a,7Fh
                or c
                and (hl)
                cp 27h
                jr nz,NOWT
                ld a,l
                sub c
                ld l,a
                ld a,(hl)
                scf
                rla
                bit 0,b
                jr nz,LB
                cp 79h
                jr nz,NOWT
                ld a,(hl)
                rla
LB              ccf
                ld a,81h
                rla
                rla
EXIT            bit 0,b
                jr nz,LC
                inc b
                ld h,a
                ex (sp),hl
                push hl
                jr STARTOFF
LC              or a                    ; ERRATUM 1: "If this direction is
                jr z,ZERO               ; 2E ... exit with value zero"
                ld b,a                  ; ERRATUM 2: LD D,A as printed
                ld a,l
                sub c
                ld l,a
                ld a,(hl)
                cp 80h
                jr nz,NOWT              ; ERRATUM 3: 28 (JR Z) as printed
                ld a,b                  ; ERRATUM 2: LD A,D as printed
ZERO            pop hl
                pop de
                sub d
                pop de
                pop bc
                ret

                if $ != 4E43h
                db SQUAREVAL_DOES_NOT_END_AT_4E42
                endif

EVALUATE        call SQUAREVAL          ; ERRATUM 4: CD F1 4D as printed
                add a,80h
                ld (INITIAL),a
                ld de,TABLE
                ld c,l
NXTMRND         ld l,c
                ld h,40h
NXTDIR          ld a,(de)
                inc e
                bit 7,(hl)
                jr z,ANYDIR
                bit 7,a
                jr nz,NXTDIR
ANYDIR          cp 2Eh
                jp z,KPCHKNG
                push bc
                ld b,a
                add a,c
                ld l,a
                ld a,(hl)
                ld h,b
                pop bc
                cp 80h
TEST            jr nz,WHAT              ; the fix of the deliberate mistake
                ld (SCANSQR),de
                call DESTVAL            ; ERRATUM 6: CALL SQUAREVAL (CD F1 4D)
NEWPRI          ld d,a
                ld a,(INITIAL)
                sub d
                ld d,a
                ld e,01h
                ld l,c
                ex (sp),hl
                and a
                sbc hl,de
                jr z,EQUAL
                add hl,de
                ex (sp),hl
                jr nc,FORGETIT
                ld sp,(LBASE)
                ld b,00h
                push de
                jr NEWITEM
EQUAL           add hl,de
                ex (sp),hl
NEWITEM         inc b
                push hl
                inc sp
                inc sp
                ex (sp),hl
                dec sp
                dec sp
                ex (sp),hl
FORGETIT        ld de,(SCANSQR)
                jr NXTMRND
WHAT            ld (SCANSQR),de
                ld d,a
                and 7Fh
                cp 27h
                jr z,FOUND
                ld de,(SCANSQR)
                jr NXTMRND
FOUND           ld a,81h
                rl d
                ccf
                rla
                rla
                ld d,a
                ld e,h
                ld a,l
                add a,h
                ld l,a
                ld h,HIGH WKBOARD
                ld a,(hl)
                ld h,e
                cp 80h
                jr z,JUMP
                ld de,(SCANSQR)         ; ED 5B: printed ED 53 (ERRATUM 5)
                jp NXTMRND
JUMP            call SQUAREVAL          ; ERRATUM 4: CD F1 4D as printed
                sub d
                jr JUMPED               ; OURS: JR NEWPRI as printed (18 A2)

                if $ != JUMPED
                db WHAT_DOES_NOT_END_AT_4ED0
                endif
