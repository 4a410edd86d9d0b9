#!/usr/bin/env bash
# Rebuilds the 4-piece tables built into the binary (src/tablebase/builtin/): builds both with
# `quill tablebase build --pieces 4` and compresses each with zlib (Python's, level 9), the
# stream src/tablebase/builtin.rs inflates. Run it after a change to the rules, the solver or
# the table format; the test `the_built_in_tables_are_what_the_builder_makes` (run by .ci/run)
# fails until then. About a minute of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for variant in apocalypse apocalypse-classic; do
  target/release/quill tablebase build --pieces 4 --variant "$variant" --out "$tmp/$variant-4.qtb" >/dev/null
  python3 -c 'import sys, zlib; open(sys.argv[2], "wb").write(zlib.compress(open(sys.argv[1], "rb").read(), 9))' \
    "$tmp/$variant-4.qtb" "src/tablebase/builtin/$variant-4.qtb.zlib"
done
ls -l src/tablebase/builtin/
