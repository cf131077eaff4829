#!/bin/sh
# Installs retrochess's chess engines into PicoChess's retro menu.
#
#   sh install.sh ENGINES_DIR [RETROCHESS_BINARY]
#
# ENGINES_DIR is PicoChess's folder for this computer's architecture
# (/opt/picochess/engines/aarch64, .../armv7l or .../x86_64: `uname -m`).
# RETROCHESS_BINARY defaults to the `retrochess` at the top of the release
# archive this folder came in (../../retrochess from here), else the one on
# PATH. It puts the launchers, their .uci level files and the binary (as
# bin/retrochess) in ENGINES_DIR/retrochess/, makes its log/ folder, and adds
# retro.ini's sections to the end of ENGINES_DIR/retro.ini between two marker
# lines (an older copy between them is replaced; the rest of the file is kept).
# Run it again to update. Restart PicoChess afterwards.
set -eu

src=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: sh install.sh ENGINES_DIR [RETROCHESS_BINARY]" >&2; exit 2; }
dest=$1
[ -d "$dest" ] || { echo "install.sh: no folder $dest (PicoChess's engines/<arch>, e.g. /opt/picochess/engines/$(uname -m))" >&2; exit 1; }
if [ $# -ge 2 ]; then
    binary=$2
elif [ -f "$src/../../retrochess" ]; then
    binary=$src/../../retrochess
else
    binary=$(command -v retrochess || true)
fi
[ -n "$binary" ] && [ -f "$binary" ] || { echo "install.sh: no retrochess binary found: give its path as the second argument" >&2; exit 1; }
"$binary" --version >/dev/null 2>&1 || { echo "install.sh: $binary does not run on this computer (wrong architecture?)" >&2; exit 1; }

mkdir -p "$dest/retrochess/bin" "$dest/retrochess/log"
for launcher in "$src"/retrochess/*; do
    case $launcher in
        *.uci) cp "$launcher" "$dest/retrochess/" ;;
        *) [ -f "$launcher" ] && cp "$launcher" "$dest/retrochess/" && chmod 755 "$dest/retrochess/$(basename "$launcher")" ;;
    esac
done
cp "$binary" "$dest/retrochess/bin/retrochess.new"
chmod 755 "$dest/retrochess/bin/retrochess.new"
mv -f "$dest/retrochess/bin/retrochess.new" "$dest/retrochess/bin/retrochess"

begin='; >>> retrochess (adapters/picochess/retro.ini): install.sh replaces what is between these lines'
end='; <<< retrochess'
ini=$dest/retro.ini
tmp=$dest/retro.ini.retrochess-new
if [ -f "$ini" ]; then
    awk -v b="$begin" -v e="$end" '$0 == b { skip = 1; next } $0 == e { skip = 0; next } !skip' "$ini" > "$tmp"
    # A last line without its newline would run into our first.
    [ -s "$tmp" ] && [ -n "$(tail -c 1 "$tmp")" ] && echo >> "$tmp"
else
    : > "$tmp"
fi
{ echo "$begin"; cat "$src/retro.ini"; echo "$end"; } >> "$tmp"
mv -f "$tmp" "$ini"
echo "retrochess installed in $dest/retrochess; its engines are in $ini (retro menu, Sinclair)"
