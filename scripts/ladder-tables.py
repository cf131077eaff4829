#!/usr/bin/env python3
"""The ladder's Markdown table, from `scripts/ladder.sh`'s CSV output.

Usage: scripts/ladder-tables.py HALVES.csv DAVIDSON.csv ANCHOR
  HALVES.csv, DAVIDSON.csv  `retrochess rate --csv` under each model
                            (OUT_DIR/chess-halves.csv, chess-davidson.csv)
  ANCHOR                    the anchor's name as rated
Prints one row a player, strongest first: Elo and 95% interval under the
default model (a draw half a point), ± (the larger side of the interval,
relative to the anchor), the Davidson model's Elo and interval, games,
wins-draws-losses. The retro engines (every player but the reference
players: Stockfish, samuel-f8 and the random mover) are in bold.
"""

import csv
import sys


REFERENCE = ("Stockfish", "Samuel F8", "Random mover")


def read(path):
    return {r["player"]: r for r in csv.DictReader(open(path))}


def num(x):
    return f"{round(float(x)):d}".replace("-", "\u2212")


def main():
    halves, davidson, anchor = read(sys.argv[1]), read(sys.argv[2]), sys.argv[3]
    print("| player | Elo | 95% interval | ± | Elo (Davidson) | 95% interval | games | W-D-L |")
    print("|---|---|---|---|---|---|---|---|")
    for name, r in sorted(halves.items(), key=lambda kv: -float(kv[1]["elo"])):
        d = davidson[name]
        wdl = f"{r['wins']}-{r['draws']}-{r['losses']}"
        shown = "`random`" if name == "Random mover" else name
        if name == anchor:
            shown += " (anchor)"
            cells = [shown, num(r["elo"]), "—", "—", num(d["elo"]), "—"]
        else:
            elo, lo, hi = (float(r[k]) for k in ("elo", "lo", "hi"))
            pm = round(max(elo - lo, hi - elo))
            cells = [
                shown,
                num(elo),
                f"{num(lo)}..{num(hi)}",
                str(pm),
                num(d["elo"]),
                f"{num(d['lo'])}..{num(d['hi'])}",
            ]
        if not name.startswith(REFERENCE):
            cells[0], cells[1] = f"**{cells[0]}**", f"**{cells[1]}**"
        print("| " + " | ".join(cells + [r["games"], wdl]) + " |")


if __name__ == "__main__":
    main()
