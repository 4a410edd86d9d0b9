#!/bin/bash
# Quill beside Fairy-Stockfish 11.1 (Debian's `fairy-stockfish`), in one run on one machine,
# since only ratios travel between these shared, noisy machines (../targets in the brief):
#
#   - start-up: wall time of `uci`, `isready`, `quit` through to `readyok` (median of RUNS),
#   - peak memory (maximum resident set size) of that start-up,
#   - search speed: Fairy-Stockfish's `bench` (chess, depth 12, one thread, 16 MiB) against
#     `quill bench` (every variant, fixed depth), in nodes per second.
#
#   scripts/compare-fairy-stockfish.sh [QUILL] [RUNS]
#
# Installs fairy-stockfish with apt-get when it is missing. Prints a table; measures, asserts
# nothing.
set -euo pipefail
QUILL=${1:-target/release/quill}
RUNS=${2:-21}
FSF=/usr/games/fairy-stockfish
if ! [ -x "$FSF" ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fairy-stockfish >/dev/null
fi
[ -x "$QUILL" ] || { echo "no Quill binary at $QUILL (cargo build --release)"; exit 2; }

# Median wall time (ms) and peak RSS (KiB) of a start-up to `readyok`.
startup() {
  local engine=$1 times=() rss=()
  for _ in $(seq "$RUNS"); do
    local out
    out=$( { /usr/bin/time -f '%e %M' bash -c \
      "printf 'uci\nisready\nquit\n' | '$engine' >/dev/null" ; } 2>&1 | tail -1)
    times+=("$(echo "$out" | awk '{printf "%.0f", $1 * 1000}')")
    rss+=("$(echo "$out" | awk '{print $2}')")
  done
  local t m
  t=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  m=$(printf '%s\n' "${rss[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  echo "$t $m"
}

# /usr/bin/time has 10 ms resolution: time many start-ups in one loop for a finer figure.
startup_loop() {
  local engine=$1 n=$RUNS start end
  start=$(date +%s%N)
  for _ in $(seq "$n"); do printf 'uci\nisready\nquit\n' | "$engine" >/dev/null; done
  end=$(date +%s%N)
  echo $(( (end - start) / n / 1000 ))
}

read -r fsf_ms fsf_kib < <(startup "$FSF")
read -r q_ms q_kib < <(startup "$QUILL")
fsf_us=$(startup_loop "$FSF")
q_us=$(startup_loop "$QUILL")
fsf_nps=$("$FSF" bench 16 1 12 default depth 2>&1 | awk '/Nodes\/second/ {print $NF}')
q_nps=$("$QUILL" bench 2>&1 >/dev/null | awk '/nodes\/s/ {print $(NF-1)}')

printf '%-34s %16s %16s %8s\n' "measure" "fairy-stockfish" "quill" "ratio"
printf '%-34s %16s %16s %8s\n' "start-up to readyok, mean (us)" "$fsf_us" "$q_us" \
  "$(echo "scale=3; $q_us / $fsf_us" | bc)"
printf '%-34s %16s %16s %8s\n' "start-up, median of $RUNS (ms, 10ms)" "$fsf_ms" "$q_ms" "-"
printf '%-34s %16s %16s %8s\n' "peak memory at start (KiB)" "$fsf_kib" "$q_kib" \
  "$(echo "scale=3; $q_kib / $fsf_kib" | bc)"
printf '%-34s %16s %16s %8s\n' "search speed (nodes/s)" "$fsf_nps" "$q_nps" \
  "$(echo "scale=3; $q_nps / $fsf_nps" | bc)"
echo "(fairy-stockfish: chess bench, depth 12, 1 thread, 16 MiB; quill: quill bench, every variant)"
