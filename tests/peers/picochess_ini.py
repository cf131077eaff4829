"""Reads adapters/picochess/ as PicoChess 4.3.4's uci/read.py does.

Usage: picochess_ini.py ENGINES_DIR INI_NAME

Prints one JSON object: {section: {"keys": {...}, "manufacturer": "...",
"levels": {level: {option: value}} or null when there is no SECTION.uci}}.
configparser with case kept (optionxform = str), each section's `.uci` read
from ENGINES_DIR/SECTION.uci with its [DEFAULT] inherited by every level, and
the strict `; Manufacturer: NAME` comment lines PicoChess groups its retro
menu by, each applying to the sections after it.
"""

import configparser
import json
import os
import re
import sys

MANUFACTURER = re.compile(r"^; Manufacturer: (.+?)\s*$")
SECTION = re.compile(r"^\s*\[([^\]]+)\]\s*$")


def main():
    engines, name = sys.argv[1], sys.argv[2]
    with open(os.path.join(engines, name), encoding="utf-8") as f:
        lines = f.readlines()
    makers, current = {}, ""
    for line in lines:
        m = MANUFACTURER.match(line.rstrip("\r\n"))
        if m and m.group(1).strip():
            current = m.group(1).strip()
            continue
        s = SECTION.match(line.rstrip("\r\n"))
        if s:
            makers[s.group(1).strip()] = current
    config = configparser.ConfigParser()
    config.optionxform = str
    config.read_string("".join(lines))
    out = {}
    for section in config.sections():
        levels = None
        uci = configparser.ConfigParser()
        uci.optionxform = str
        if uci.read(os.path.join(engines, section + ".uci")):
            levels = {lv: {k: uci[lv][k] for k in uci.options(lv)} for lv in uci.sections()}
        out[section] = {"keys": dict(config[section]), "manufacturer": makers.get(section, ""),
                        "levels": levels}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
