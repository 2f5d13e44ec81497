#!/usr/bin/env bash
# Runs the fuzz targets of Fuzz/ (built by `make fuzz-build` into .build-fuzz).
#
#   Scripts/fuzz.sh short   # make test: every regression input once, then FUZZ_RUNS inputs from a
#                           # fixed seed per target (the same inputs on every run: repeatable)
#   Scripts/fuzz.sh long    # make fuzz: FUZZ_SECONDS per target, growing .build-fuzz/corpus
#
# A crash (a trap, an ASan report, a failed invariant) fails the run and leaves the input in
# .build-fuzz/crashes/<target>/; copy it into Fuzz/Regressions/<target>/ with a name that says what
# it found, and add a test of the fix to the module's own tests.
set -uo pipefail
cd "$(dirname "$0")/.."

mode=${1:-short}
targets=${FUZZ_TARGETS:-FuzzKeymap FuzzSession FuzzStateFile FuzzInputDecoder}
runs=${FUZZ_RUNS:-20000}
seconds=${FUZZ_SECONDS:-300}
bin=$(swift build --package-path Fuzz --scratch-path "$PWD/.build-fuzz" --show-bin-path 2>/dev/null)
# Swift's backtracer would read the crashed process's memory under ASan: libFuzzer's report is enough.
export SWIFT_BACKTRACE=enable=no
# The Swift runtime's caches look like leaks to LeakSanitizer when the process ends.
common=(-detect_leaks=0 -print_final_stats=0)

failed=()
for target in $targets; do
    crashes=$PWD/.build-fuzz/crashes/$target
    mkdir -p "$crashes"
    regressions=(Fuzz/Regressions/$target/*)
    if [ -e "${regressions[0]}" ]; then
        if ! "$bin/$target" "${common[@]}" "${regressions[@]}" >".build-fuzz/$target-regressions.log" 2>&1; then
            tail -20 ".build-fuzz/$target-regressions.log"
            echo "fuzz: $target: a regression input crashes again (log: .build-fuzz/$target-regressions.log)"
            failed+=("$target")
            continue
        fi
    fi
    if [ "$mode" = long ]; then
        corpus=$PWD/.build-fuzz/corpus/$target
        mkdir -p "$corpus"
        args=(-max_total_time="$seconds" "$corpus" "$PWD/Fuzz/Corpus/$target")
    else
        # A fresh copy of the committed seeds, so a short run neither changes nor depends on
        # what earlier runs found.
        corpus=$(mktemp -d "${TMPDIR:-/tmp}/appletkit-fuzz.XXXXXX")
        cp "Fuzz/Corpus/$target"/* "$corpus"/
        target_runs=$runs
        # Each state-file input that keeps a value aside writes (and fsyncs) a file: about a
        # hundred inputs a second against tens of thousands for the others.
        [ "$target" = FuzzStateFile ] && target_runs=$((runs / 10))
        args=(-seed=1 -runs="$target_runs" "$corpus")
    fi
    started=$SECONDS
    "$bin/$target" "${common[@]}" -artifact_prefix="$crashes/" "${args[@]}" >".build-fuzz/$target.log" 2>&1
    status=$?
    [ "$mode" = long ] || rm -rf "$corpus"
    executed=$(grep -o 'Done [0-9]* runs' ".build-fuzz/$target.log" | tail -1)
    if [ $status -ne 0 ]; then
        grep -E 'ERROR|Fatal error|Precondition failed|failed:|Test unit written' ".build-fuzz/$target.log" | head -8
        echo "fuzz: $target found a crash (log: .build-fuzz/$target.log; input in $crashes/)"
        failed+=("$target")
    else
        echo "fuzz: $target: ${executed:-no run count} in $((SECONDS - started)) s, no crash"
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: crashes in ${failed[*]}"
    exit 1
fi
