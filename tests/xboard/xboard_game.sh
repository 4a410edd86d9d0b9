#!/bin/bash
# One headless XBoard game of Quill against Quill in VARIANT, then checks on what XBoard did:
# it exited by itself, saved a PGN naming the variant with a result, relayed the moves, saw no
# forfeit, illegal move or false claim, and its final board equals Quill's.
#
#   tests/xboard/xboard_game.sh VARIANT QUILL_BINARY [OUTDIR]
#
# Needs xboard and Xvfb (.ci/run installs them). XBoard plays with -xlegal (the pawns' borrowed
# moves and the supporters' jumps are beyond its move generator) and adjudicates a draw after 30
# of its moves: 60 plies, a whole number of three-ply turns (protocol-docs/cecp.md), so the game
# always ends between turns. Quill searches 2 plies deep within 40 s a game per engine (it spends
# at most a thirtieth of what is left on a move), so a slow or loaded machine still finishes the
# game in well under the harness's timeout: with 10 minutes a side, one CI run spent 4 s and more on
# some Brawl moves and ran out of wall time.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
VARIANT=$1
QUILL=$2
OUT=${3:-$(mktemp -d)}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
pass=0; fail=0
check() {  # check "description" command...
  local what=$1; shift
  if "$@"; then pass=$((pass + 1)); echo "ok   - $VARIANT: $what"
  else fail=$((fail + 1)); echo "FAIL - $VARIANT: $what"; fi
}

rm -f "$OUT/first.log" "$OUT/second.log" "$OUT/pos.fen"
XB_TIMEOUT=${XB_TIMEOUT:-240} "$HERE/xboard_headless.sh" "$OUT" \
  "$QUILL --log $OUT/first.log" "$QUILL --log $OUT/second.log" -- \
  -variant "$VARIANT" -xlegal -tc 0:40 -inc 0 -depth 2 -adjudicateDrawMoves 30 \
  -savePositionFile "$OUT/pos.fen"
rc=$?
PGN=$OUT/game.pgn; DBG=$OUT/xboard.debug
check "xboard exited by itself (rc=$rc)" test "$rc" -eq 0
check "PGN written" test -s "$PGN"
check "PGN names the variant" grep -q "^\[Variant \"$VARIANT\"\]" "$PGN"
check "PGN has a result" grep -Eq '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$PGN"
check "PGN has moves" grep -Eq '^1\. ' "$PGN"
check "engine sent setup with a board size" grep -Eq '^[0-9]+ <first : setup \([^)]*\) [0-9]+x[0-9]+\+[0-9]+_[a-z]+ ' "$DBG"
check "second engine got the start position by setboard" grep -Eq '^[0-9]+ >second: setboard ' "$DBG"
check "moves were relayed with usermove" grep -Eq '^[0-9]+ >(first |second): usermove ' "$DBG"
check "no forfeit / false claim / illegal move / engine error" \
  bash -c "! grep -Eiq 'Forfeit|False (win|draw|loss) claim|Illegal move|<(first |second): Error|did not send setup|not supported' '$DBG' '$OUT/xboard.out'"
check "XBoard printed the match score" grep -q 'final score' "$OUT/xboard.out"
check "XBoard saved its final position" test -s "$OUT/pos.fen"

# Quill's final position: every ply the first engine saw or made, replayed in force mode.
# A setboard after the first move is XBoard's relay of a null ply.
awk '
  /^> usermove / { print "usermove " $3; started = 1; next }
  /^< move /     { print "usermove " $3; started = 1; next }
  /^> setboard / && started { print "usermove @@@@" }
' "$OUT/first.log" > "$OUT/plies.txt"
{ printf 'xboard\nprotover 2\nrejected sealed\nvariant %s\nforce\n' "$VARIANT"
  cat "$OUT/plies.txt"; printf 'd\nquit\n'; } | "$QUILL" > "$OUT/replay.out"
quill_board=$(sed -n 's/^Fen: \([^ ]*\).*/\1/p' "$OUT/replay.out")
xboard_board=$(cut -d' ' -f1 "$OUT/pos.fen" 2>/dev/null | sed 's/\[.*//')
echo "  quill:  $quill_board"
echo "  xboard: $xboard_board"
check "Quill replayed every ply without complaint" bash -c "! grep -Eq '^(Error|Illegal)' '$OUT/replay.out'"
check "XBoard's final board equals Quill's" test -n "$quill_board" -a "$quill_board" = "$xboard_board"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
