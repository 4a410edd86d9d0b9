#!/bin/bash
# Quill beside Fairy-Stockfish, like with like, by CPU time: see compare-fairy-stockfish.py,
# which does the work and prints what it compares.
#
#   scripts/compare-fairy-stockfish.sh [QUILL] [ROUNDS]
set -euo pipefail
here=$(dirname "$0")
exec python3 "$here/compare-fairy-stockfish.py" --quill "${1:-target/release/quill}" \
  --rounds "${2:-5}"
