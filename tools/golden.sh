#!/bin/sh
# golden.sh: whole-text golden tests (no FileCheck patterns: the whole
# output must be equal).
#
#   sh tools/golden.sh check|bless BUILD_DIR EXT FILE...
#
# Each FILE names its command in its first "RUN:" comment line ("// RUN:"
# or "# RUN:"), with %s for the file and %mt-opt / %mytriton for the tools
# in BUILD_DIR.  The expected output is stdout and stderr together, plus a
# last line "[exit N]" when the status is not 0, in FILE with its
# extension replaced by EXT (tests/opt/x.ir -> x.out, a.test -> a.cu).
# check: prints a diff per failing file, exits 1 if any failed.
# bless: rewrites the expected files and prints what changed (review it).
set -u
mode=$1
build=$2
ext=$3
shift 3
case $mode in check|bless) ;; *) echo "usage: golden.sh check|bless BUILD_DIR EXT FILE..." >&2; exit 2;; esac

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 total=0 changed=0
for f in "$@"; do
    want=${f%.*}$ext
    total=$((total + 1))
    cmd=$(sed -n 's@^\(//\|#\) RUN: @@p' "$f" | head -n 1)
    if [ -z "$cmd" ]; then
        echo "golden.sh: $f: no RUN: line" >&2
        failed=$((failed + 1))
        continue
    fi
    cmd=$(printf '%s\n' "$cmd" | sed -e "s@%mt-opt@$build/mt-opt@g" \
        -e "s@%mytriton@$build/mytriton@g" -e "s@%s@$f@g")
    got=$tmp/got
    (eval "$cmd") > "$got" 2>&1
    rc=$?
    [ $rc -ne 0 ] && echo "[exit $rc]" >> "$got"
    if [ "$mode" = bless ]; then
        if [ ! -f "$want" ]; then
            echo "== new $want"
            cat "$got"
            changed=$((changed + 1))
        elif ! cmp -s "$want" "$got"; then
            echo "== changed $want"
            diff -u "$want" "$got"
            changed=$((changed + 1))
        fi
        cp "$got" "$want"
    elif [ ! -f "$want" ]; then
        echo "FAIL $f: no $want (make bless writes it)"
        failed=$((failed + 1))
    elif ! cmp -s "$want" "$got"; then
        echo "FAIL $f: $cmd"
        diff -u "$want" "$got"
        failed=$((failed + 1))
    fi
done
if [ "$mode" = bless ]; then
    echo "golden.sh: $changed of $total expected outputs written anew"
    exit 0
fi
if [ $failed -ne 0 ]; then
    echo "golden.sh: $failed of $total failed"
    exit 1
fi
echo "golden.sh: $total passed"
