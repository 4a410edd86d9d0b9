#!/usr/bin/env bash
# Rebuilds the tables built into the binary (src/tablebase/builtin/): builds each rule set's
# table with `quill tablebase build --pieces N` and compresses it with zlib (Python's, level 9),
# the stream src/tablebase/builtin.rs inflates. Run it after a change to the rules, the solver
# or the table format.
#
#   scripts/pack-builtin-tables.sh        # the 4-piece tables: about a minute of CPU; the test
#                                         # `the_built_in_tables_are_what_the_builder_makes`
#                                         # (run by .ci/run) fails until then
#   scripts/pack-builtin-tables.sh 5      # the 5-piece tables: about 100 CPU minutes and 1.7 GiB
#                                         # each (a stopped build resumes from its checkpoint)
set -euo pipefail
cd "$(dirname "$0")/.."
pieces=${1:-4}
case "$pieces" in
  4 | 5) ;;
  *) echo "usage: $0 [4|5]" >&2; exit 2 ;;
esac
cargo build --release --quiet
work=target/builtin-tables
mkdir -p "$work"
for variant in apocalypse apocalypse-classic; do
  table="$work/$variant-$pieces.qtb"
  target/release/quill tablebase build --pieces "$pieces" --variant "$variant" --out "$table" >/dev/null
  python3 -c 'import sys, zlib; open(sys.argv[2], "wb").write(zlib.compress(open(sys.argv[1], "rb").read(), 9))' \
    "$table" "src/tablebase/builtin/$variant-$pieces.qtb.zlib"
done
ls -l src/tablebase/builtin/
