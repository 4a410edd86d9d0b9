#!/bin/bash
# A person enters a Gladiator or Brawl game in a real XBoard (Edit Game mode, Quill as the
# engine, which XBoard keeps in force mode) by clicking on the board and in the holdings and by
# typing in XBoard's move box. Three of the plies are wrong: in Gladiator two middle plies (a
# pawn move where the opponent's null move @@@@ belongs) and a third ply (a jump into the
# arena); in Brawl two middle plies after a pawn displaced a knight (a null move and a drop on
# the wrong square, where the drop N@c2 belongs) and a third ply (a blocked queen move). Quill
# must refuse each with `Illegal move`, XBoard must take it back, and the game goes on with the
# corrected ply. At the end the person saves the game (Ctrl+S) and quits (Ctrl+Q), and three
# boards must be equal:
#   - XBoard's saved PGN, replayed through Quill's rules (tests/xboard/pgn_replay.py);
#   - Quill's own board: everything the engine received (its --log), replayed into a second
#     Quill, then `d` (the engine only records moves in force mode, so this is its state);
#   - XBoard's own board, as it sent it in its last `setboard` (XBoard relays a person's null
#     ply in Edit Game mode as the position after it).
#
#   tests/xboard/xboard_person.sh gladiator|brawl QUILL_BINARY [OUTDIR]
#
# Needs xboard, Xvfb, xdotool and python3 (.ci/run installs the first three). Takes ~10 s.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
VARIANT=$1
QUILL=$2
OUT=${3:-$(mktemp -d)}
mkdir -p "$OUT/home"; OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/{first.log,xboard.debug,xboard.out,saved.pgn*,display,replay.out,pgn.out}
LOG=$OUT/first.log DBG=$OUT/xboard.debug
pass=0; fail=0
check() {  # check "description" command...
  local what=$1; shift
  if "$@"; then pass=$((pass + 1)); echo "ok   - person $VARIANT: $what"
  else fail=$((fail + 1)); echo "FAIL - person $VARIANT: $what"; fi
}
step() {  # step "description" command...: a check after which a failure ends the test
  check "$@"
  [ "$fail" -eq 0 ] || { echo "  (the game cannot go on; see $OUT)"; finish; }
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$OUT/display" 2>"$OUT/xvfb.log" &
XVFB_PID=$!
# A loaded machine can take seconds to start the X server: up to 30 s.
for _ in $(seq 1 600); do [ -s "$OUT/display" ] && break; sleep 0.05; done
[ -s "$OUT/display" ] || { echo "FAIL - person $VARIANT: Xvfb gave no display in 30 s"; kill $XVFB_PID; exit 1; }
export DISPLAY=":$(head -1 "$OUT/display")"
HOME="$OUT/home" timeout 150 /usr/games/xboard -fcp "$QUILL --log $LOG" -variant "$VARIANT" \
  -xlegal -mode EditGame -debug -nameOfDebugFile "$DBG" -engineDebugOutput 2 \
  -saveSettingsOnExit false -soundProgram "" -startupMessage "" -xponder \
  -popupMoveErrors false >"$OUT/xboard.out" 2>&1 &
XB_PID=$!
trap 'kill $XB_PID 2>/dev/null; kill $XVFB_PID 2>/dev/null' EXIT

# wait_for FILE REGEX [FROM_LINE]: until a line after FROM_LINE matches (30 s at most: it
# returns as soon as the line is there, so the bound only matters on a very loaded machine).
wait_for() {
  local from=${3:-0} until=$((SECONDS + 30))
  while [ "$SECONDS" -lt "$until" ]; do
    tail -n +"$((from + 1))" "$1" 2>/dev/null | grep -Eq -- "$2" && return 0
    sleep 0.1
  done
  echo "  (waited in vain for /$2/ in $(basename "$1"))"; return 1
}
lines() { wc -l <"$1" 2>/dev/null || echo 0; }

step "XBoard started Quill and put it in force mode" wait_for "$DBG" '^[0-9]+ >first : force$'
# Quill answers `variant` with `setup` (and the board's holdings), then the `ping` XBoard sent
# after it: on a loaded machine that can come seconds after `force`, and XBoard lays its board
# out again when it does. The clicks wait for it.
step "Quill answered XBoard's setup (pong)" wait_for "$DBG" '^[0-9]+ <first : pong 1$'
WIN=$(timeout 30 xdotool search --sync --name 'xboard: Quill' 2>/dev/null | head -1)
step "XBoard's board window is up" test -n "$WIN"
# XBoard lays the board out again once the engine's `setup` has given it holdings: wait until
# the window's size has stayed the same for a second.
last=""; same=0
for _ in $(seq 1 50); do
  size=$(xdotool getwindowgeometry "$WIN" 2>/dev/null | grep Geometry)
  if [ "$size" = "$last" ]; then same=$((same + 1)); else same=0; last=$size; fi
  [ "$same" -ge 5 ] && break
  sleep 0.2
done

# Square centres on XBoard's default board for a 1280x1024 screen (the window at the top left),
# measured from screenshots: 50-pixel squares from (2, 89) in Gladiator; in Brawl, whose board
# has holdings columns on both sides, 33-pixel squares from (69, 86), Black's holdings on the
# left (pawn, knight, … from the top). Every click on a piece is checked: XBoard must send
# `lift` of that square.
case $VARIANT in
  gladiator) X0=2 Y0=89 S=50 ;;
  brawl) X0=69 Y0=86 S=33 ;;
  *) echo "no scripted game for $VARIANT"; exit 2 ;;
esac
square() {
  local f=$(($(printf '%d' "'${1:0:1}") - 97)) r=${1:1}
  echo $((X0 + S * f + S / 2)) $((Y0 + S * (8 - r) + S / 2))
}
click() { xdotool mousemove $(square "$1") click 1; }
# move FROM TO EXPECT: a person's click-click move; EXPECT is the regex of Quill's log line.
move() {
  local mark; mark=$(lines "$LOG")
  click "$1"; wait_for "$LOG" "^> lift $1$" "$mark" || return 1
  click "$2"; wait_for "$LOG" "$3" "$mark"
}
# drop SLOT TO EXPECT: a person's click on Black's holdings (slot 0 = pawn, 1 = knight, …),
# then on the board.
drop() {
  local mark; mark=$(lines "$LOG")
  xdotool mousemove $((X0 - 2 * S + S / 2)) $((Y0 + S * $1 + S / 2)) click 1
  wait_for "$LOG" '^> lift ' "$mark" || return 1
  click "$2"; wait_for "$LOG" "$3" "$mark"
}
# typein TEXT EXPECT: typed into XBoard's move box (a key on the board opens it), then Enter.
typein() {
  local mark; mark=$(lines "$LOG")
  timeout 5 xdotool windowfocus --sync "$WIN" 2>/dev/null; xdotool type --delay 40 "$1"; xdotool key Return
  wait_for "$LOG" "$2" "$mark"
}
null='^> setboard '  # XBoard's relay of a person's @@@@ in Edit Game mode
refused() { echo "^< Illegal move \\(.*\\): $1$"; }

if [ "$VARIANT" = gladiator ]; then
  step "turn 1 P1: c2c7 (clicks)"                 move c2 c7 '^> usermove c2c7$'
  step "turn 1 P2 wrong: b6b5 is refused"         move b6 b5 "$(refused b6b5)"
  step "turn 1 P2: @@@@ (typed)"                  typein @@@@ "$null"
  step "turn 1 P3: h1h2"                          move h1 h2 '^> usermove h1h2$'
  step "turn 2 P1: b7c7"                          move b7 c7 '^> usermove b7c7$'
  step "turn 2 P2 wrong: d2d3 is refused"         move d2 d3 "$(refused d2d3)"
  step "turn 2 P2: @@@@"                          typein @@@@ "$null"
  step "turn 2 P3: d8h7"                          move d8 h7 '^> usermove d8h7$'
  step "turn 3 P1: d2e3"                          move d2 e3 '^> usermove d2e3$'
  step "turn 3 P2: @@@@"                          typein @@@@ "$null"
  step "turn 3 P3 wrong: b1c3 is refused (typed)" typein b1c3 "$(refused b1c3)"
  step "turn 3 P3: @@@@"                          typein @@@@ "$null"
  expected_plies="c2c7 @@@@ h1h2 b7c7 @@@@ d8h7 d2e3 @@@@ @@@@ "
else
  step "turn 1 P1: b2a3 (clicks)"                 move b2 a3 '^> usermove b2a3$'
  step "turn 1 P2: @@@@ (typed)"                  typein @@@@ "$null"
  step "turn 1 P3: @@@@"                          typein @@@@ "$null"
  step "turn 2 P1: b7g2"                          move b7 g2 '^> usermove b7g2$'
  step "turn 2 P2: @@@@"                          typein @@@@ "$null"
  step "turn 2 P3: b8c6"                          move b8 c6 '^> usermove b8c6$'
  # The pawn lands on the knight, which White puts on c2, the square the pawn left.
  step "turn 3 P1: c2c6 displaces the knight"     move c2 c6 '^> usermove c2c6$'
  step "turn 3 P2 wrong: @@@@ is refused"         typein @@@@ "$(refused @@@@)"
  step "turn 3 P2 wrong: N@d3 is refused"         drop 1 d3 "$(refused N@d3)"
  step "turn 3 P2: N@c2 (from the holdings)"      drop 1 c2 '^> usermove N@c2$'
  step "turn 3 P3 wrong: d1d3 is refused (typed)" typein d1d3 "$(refused d1d3)"
  step "turn 3 P3: @@@@"                          typein @@@@ "$null"
  expected_plies="b2a3 @@@@ @@@@ b7g2 @@@@ b8c6 c2c6 N@c2 @@@@ "
fi

# The person saves the game (Ctrl+S opens a file chooser: type the path, Enter) and quits.
timeout 5 xdotool windowfocus --sync "$WIN" 2>/dev/null; xdotool key ctrl+s
DLG=$(timeout 30 xdotool search --sync --name 'Save game file name' 2>/dev/null | head -1)
if [ -n "$DLG" ]; then
  timeout 5 xdotool windowfocus --sync "$DLG" 2>/dev/null; xdotool type --delay 20 "$OUT/saved.pgn"
  xdotool key Return
fi
# (GTK's file chooser sometimes appends the filter's .pgn to a name that has it already.)
for _ in $(seq 1 300); do
  PGN=$(ls "$OUT"/saved.pgn* 2>/dev/null | head -1)
  [ -n "$PGN" ] && grep -q '^\[Variant ' "$PGN" && break
  sleep 0.1
done
PGN=${PGN:-$OUT/saved.pgn}
timeout 5 xdotool windowfocus --sync "$WIN" 2>/dev/null; xdotool key ctrl+q
wait "$XB_PID"; rc=$?
check "XBoard exited by itself on Ctrl+Q (rc=$rc)" test "$rc" -eq 0
check "XBoard saved the game" grep -q "^\\[Variant \"$VARIANT\"\\]" "$PGN"
check "Quill refused exactly the three wrong plies" test "$(grep -c '^< Illegal move' "$LOG")" -eq 3
# XBoard names a holdings square `_7` in `lift`, which Quill's parser does not read (known).
check "no other error from Quill" \
  bash -c "! grep -E '^< Error' '$LOG' | grep -vq \"malformed 'lift': needs a square, got '_\""
check "XBoard took each refused ply back" \
  test "$(grep -c 'rejected by first chess program' "$OUT/xboard.out")" -eq 3

# 1. XBoard's game record through Quill's rules.
python3 "$HERE/pgn_replay.py" "$QUILL" "$PGN" >"$OUT/pgn.out"
check "every ply of XBoard's PGN is legal under Quill's rules" test $? -eq 0
plies=$(grep -v '^Fen: ' "$OUT/pgn.out" | cut -d' ' -f2 | tr '\n' ' ')
check "the PGN holds the accepted plies and none of the refused ones ($plies)" \
  test "$plies" = "$expected_plies"
pgn_fen=$(sed -n 's/^Fen: \([^ ]* [wb]\).*/\1/p' "$OUT/pgn.out")
# 2. Quill's own state: its input replayed.
sed -n 's/^> //p' "$LOG" | grep -v '^quit$' | { cat; echo d; } | "$QUILL" >"$OUT/replay.out"
quill_fen=$(sed -n 's/^Fen: \([^ ]* [wb]\).*/\1/p' "$OUT/replay.out")
check "the replay of Quill's input refuses the same plies" \
  test "$(grep -c '^Illegal move' "$OUT/replay.out")" -eq 3
# 3. XBoard's own board, from its last setboard (holdings and castling fields dropped).
xboard_fen=$(grep -E '^[0-9]+ >first : setboard ' "$DBG" | tail -1 | cut -d' ' -f5,6 | sed 's/\[[^ ]*//')
echo "  pgn through quill: $pgn_fen"
echo "  quill:             $quill_fen"
echo "  xboard:            $xboard_fen"
check "Quill's board equals XBoard's" test -n "$quill_fen" -a "$quill_fen" = "$xboard_fen"
check "XBoard's PGN through Quill's rules gives the same board" test "$pgn_fen" = "$quill_fen"
finish
