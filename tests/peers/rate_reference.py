"""An independent rating of the players in PGN/PDN files, to check
`retrochess rate` against.

    rate_reference.py PRIOR NAME FILE[,FILE]... [NAME FILE[,FILE]...]...

Reads the files with python-chess's header reader (which takes PDN tags as
well), normalises names (spaces, case) and counts each pair's wins, draws
and losses. Then:

- halves: choix's `opt_pairwise` (Bradley-Terry by maximum likelihood, with
  scipy's Newton-CG) on the games with every game counted twice, so a draw
  is one win each way, plus PRIOR wins each way for every pair that met
  (PRIOR virtual draws);
- davidson: the Davidson likelihood (Bradley-Terry with a draw parameter),
  written here with numpy and maximised by scipy's BFGS, with the same
  virtual draws.

Prints, for each NAME (a set of files) and each model, `NAME,MODEL,player,elo`
lines (mean 0) and `NAME,MODEL,nu,VALUE`.
"""
import io
import math
import sys

import chess.pgn
import choix
import numpy as np
from scipy.optimize import minimize

ELO = math.log(10) / 400


def games(paths):
    names, index, out, seen = [], {}, [], set()

    def player(name):
        tidy = " ".join(name.split())
        key = tidy.lower()
        if key not in index:
            index[key] = len(names)
            names.append(tidy)
        return index[key]

    for path in paths:
        draughts = path.endswith(".pdn")
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        stream = io.StringIO(text)
        while True:
            headers = chess.pgn.read_headers(stream)
            if headers is None:
                break
            key = tuple(sorted(headers.items()))
            if key in seen:
                continue
            seen.add(key)
            result = headers.get("Result", "*")
            variant = headers.get("Variant", "standard").lower()
            if result == "*" or (not draughts and variant not in ("standard", "chess")):
                continue
            white, black = player(headers["White"]), player(headers["Black"])
            # PDN's first number is the first mover's: Black in English draughts.
            first = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            out.append((white, black, 1.0 - first if draughts else first))
    return names, out


def rate(model, prior, paths):
    names, played = games(paths)
    n = len(names)
    met = sorted({(min(a, b), max(a, b)) for a, b, _ in played})
    nu = 0.0
    if model == "halves":
        data = []
        for a, b, s in played:
            wins_a = round(2 * s)
            data += [(a, b)] * wins_a + [(b, a)] * (2 - wins_a)
        for a, b in met:
            data += [(a, b)] * prior + [(b, a)] * prior
        theta = choix.opt_pairwise(n, data, alpha=1e-12, tol=1e-12)
    else:
        counts = {}
        for a, b, s in played:
            i, j = min(a, b), max(a, b)
            c = counts.setdefault((i, j), [0, 0, 0])
            c[0 if (s == 1.0) == (a == i) and s != 0.5 else 2 if s != 0.5 else 1] += 1

        def lse(*xs):
            top = max(xs)
            return top + math.log(sum(math.exp(x - top) for x in xs))

        def negative(x):
            t = [0.0] + list(x[: n - 1])
            lnu = x[n - 1]
            v = 0.0
            for (i, j), (wi, dr, wj) in counts.items():
                mid = lnu + (t[i] + t[j]) / 2
                z = lse(t[i], t[j], mid)
                v += wi * (t[i] - z) + dr * (mid - z) + wj * (t[j] - z)
            for i, j in met:
                v += prior * ((t[i] + t[j]) / 2 - lse(t[i], t[j]))
            return -v

        found = minimize(negative, np.zeros(n), method="BFGS", options={"gtol": 1e-10})
        theta = np.concatenate([[0.0], found.x[: n - 1]])
        nu = math.exp(found.x[n - 1])
    elo = (theta - theta.mean()) / ELO
    return names, elo, nu


def main():
    prior, rest = int(sys.argv[1]), sys.argv[2:]
    for fixture, files in zip(rest[0::2], rest[1::2]):
        for model in ("halves", "davidson"):
            names, elo, nu = rate(model, prior, files.split(","))
            for name, e in zip(names, elo):
                print(f"{fixture},{model},{name},{e}")
            print(f"{fixture},{model},nu,{nu}")


main()
