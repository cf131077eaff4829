#!/usr/bin/env python3
"""The imports between the files of src/, item by item: each path a file
names (`use crate::…`, `super::…`, `self::…`, a child module's `name::…`,
inline or in a `use`) is followed to the file that defines the item, through
`pub use` re-exports; a `pub use` itself (a module's interface) is not an
import of the file that writes it. Prints every pair of files that import
each other and every cycle; exits 1 if there is one.

Usage: scripts/file-imports.py [SRC] [--list]"""
import re, sys
from pathlib import Path

root = Path(next((a for a in sys.argv[1:] if not a.startswith("--")), "src"))
files = sorted(root.rglob("*.rs"))

def module_of(p):
    parts = list(p.relative_to(root).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)

mods = {module_of(p): p for p in files if p.name != "main.rs"}
# Files include!d by another: part of it.
included = {}
for p in files:
    for m in re.finditer(r'include!\("([^"]+)"\)', p.read_text()):
        included[(p.parent / m.group(1)).resolve()] = p

def code_of(p):
    s = p.read_text()
    s = re.sub(r"//[^\n]*", "", s)
    s = re.sub(r"/\*.*?\*/", "", s, flags=re.S)
    s = re.sub(r'"(\\.|[^"\\])*"', '""', s)
    return re.split(r"#\[cfg\(test\)\]\s*mod\s+tests\s*\{", s)[0]

code = {p: code_of(p) for p in files}
ITEM = r"(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:unsafe\s+)?(?:struct|enum|trait|type|fn|const|static|mod|union)\s+(\w+)"
defined = {p: set(re.findall(r"(?m)^\s*" + ITEM, code[p])) | set(re.findall(r"macro_rules!\s*(\w+)", code[p])) for p in files}

def expand(tree):
    out = []
    def go(prefix, s):
        s = s.strip()
        if not s:
            return
        i = s.find("{")
        if i < 0:
            out.append(prefix + [x for x in s.split("::") if x])
            return
        head = [x for x in s[:i].split("::") if x]
        body = s[i + 1: s.rfind("}")]
        depth, start = 0, 0
        for j, ch in enumerate(body):
            if ch == "{": depth += 1
            elif ch == "}": depth -= 1
            elif ch == "," and depth == 0:
                go(prefix + head, body[start:j]); start = j + 1
        go(prefix + head, body[start:])
    go([], tree)
    return out

def absolute(here, path):
    """`path` as written in module `here`, from the crate root; None if not ours."""
    if path[0] == "crate":
        return list(path[1:])
    if path[0] == "super":
        k = 0
        while k < len(path) and path[k] == "super":
            k += 1
        return list(here[: len(here) - k]) + list(path[k:])
    if path[0] == "self":
        return list(here) + list(path[1:])
    if tuple(list(here) + [path[0]]) in mods:
        return list(here) + list(path)
    return None

# Re-exports: (module, name) -> absolute path of what it names.
reexports = {}
for p in files:
    here = module_of(p)
    for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", code[p]):
        for path in expand(m.group(1)):
            alias = path[-1]
            am = re.match(r"(\w+)\s+as\s+(\w+)", alias)
            if am:
                path = path[:-1] + [am.group(1)]; alias = am.group(2)
            full = absolute(here, path) if path else None
            if full is not None:
                reexports[(here, alias)] = full

def resolve(full, depth=0):
    """The file defining what `full` names."""
    for n in range(len(full), -1, -1):
        m = tuple(full[:n])
        if m in mods:
            rest = full[n:]
            f = mods[m]
            if rest and rest[0] not in defined[f] and (m, rest[0]) in reexports and depth < 20:
                return resolve(reexports[(m, rest[0])] + rest[1:], depth + 1)
            return f
    return None

edges = {p: set() for p in files}
for p in files:
    here = module_of(p)
    c = re.sub(r"\bpub(?:\([^)]*\))?\s+use\s+[^;]+;", "", code[p])
    trees = [m.group(1) for m in re.finditer(r"\buse\s+([^;]+);", c)]
    trees += [m.group(0) for m in re.finditer(r"(?<![:\w])(?:crate|super|self)(?:::\w+)+", c)]
    trees += [m.group(0) for m in re.finditer(r"(?<![:\w])\w+(?:::\w+)+", c)
              if tuple(list(here) + [m.group(0).split("::")[0]]) in mods]
    for t in trees:
        t = re.sub(r"\s+as\s+\w+", "", t)
        for path in expand(t):
            if not path:
                continue
            full = absolute(here, path)
            if full is None:
                continue
            f = resolve(full)
            f = included.get(f.resolve(), f) if f else f
            if f is not None and f != p:
                edges[p].add(f)
# An include!d file's imports are its includer's.
for inc, by in included.items():
    for p in files:
        if p.resolve() == inc:
            edges[by] |= edges.pop(p, set()) - {by}

if "--list" in sys.argv:
    for p in sorted(edges):
        print(p, "->", " ".join(str(t) for t in sorted(edges[p])))

index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def strong(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1:
            comps.append(sorted(comp))
for v in sorted(edges):
    if v not in index:
        strong(v)
pairs = sorted((str(a), str(b)) for a in edges for b in edges[a] if a in edges.get(b, ()) and str(a) < str(b))
for a, b in pairs:
    print(f"two-way: {a} <-> {b}")
for c in comps:
    print(f"cycle of {len(c)} files: " + " ".join(str(x) for x in c))
print(f"{len(edges)} files, {sum(len(v) for v in edges.values())} imports between files, {len(pairs)} two-way, {len(comps)} cycles")
sys.exit(1 if comps else 0)
