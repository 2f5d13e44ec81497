#!/usr/bin/env bash
# Finds flaky tests before CI does: runs the suites that drive real terminals (the demo's end-to-end
# and reliability suites in tmux and on pseudo-terminals, and the framework's pseudo-terminal
# suites) and real PostgreSQL servers (AppletSync's) RUNS times on one build, then reports each test that failed at least once, with how many
# times and its messages. Exits 1 if any test failed.
#
#   Scripts/flaky.sh                 # 10 runs (make flaky)
#   RUNS=30 BUSY=1 Scripts/flaky.sh  # 30 runs with the other cores kept busy
#   CLEAN=1 Scripts/flaky.sh         # build from nothing first, in .build-flaky
#
# BUSY=1 keeps all but one core busy with a CPU loop during the runs (a loaded CI machine);
# BUSY=N runs N loops.
# FILTER and FRAMEWORK_FILTER (swift test --filter patterns) choose other suites.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-10}
swift=${SWIFT:-swift}
scratch=.build
if [ "${CLEAN:-0}" = 1 ]; then
    scratch=.build-flaky
    rm -rf "$scratch"
fi
flags=(--scratch-path "$PWD/$scratch" --disable-build-manifest-caching)
demo_filter=${FILTER:-}
framework_filter=${FRAMEWORK_FILTER:-PseudoTerminal|AppletSyncTests}
logs=$(mktemp -d "${TMPDIR:-/tmp}/appletkit-flaky.XXXXXX")

echo "flaky: building (scratch $scratch)"
"$swift" build --build-tests "${flags[@]}" >"$logs/build-framework.txt" 2>&1 \
    || { tail -30 "$logs/build-framework.txt"; echo "flaky: the framework's tests do not build"; exit 2; }
"$swift" build --build-tests --package-path Demo "${flags[@]}" >"$logs/build-demo.txt" 2>&1 \
    || { tail -30 "$logs/build-demo.txt"; echo "flaky: the demo's tests do not build"; exit 2; }

burners=()
stop_burners() { for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_burners EXIT
busy=${BUSY:-0}
if [ "$busy" = 1 ]; then busy=$(( $(nproc) > 1 ? $(nproc) - 1 : 1 )); fi
if [ "$busy" -gt 0 ] 2>/dev/null; then
    for ((loop = 0; loop < busy; loop++)); do
        ( while :; do :; done ) &
        burners+=($!)
    done
    echo "flaky: ${#burners[@]} busy loop(s) running beside the tests"
fi

demo_args=(--skip PackagingTests)
[ -n "$demo_filter" ] && demo_args+=(--filter "$demo_filter")

for ((run = 1; run <= runs; run++)); do
    started=$SECONDS
    "$swift" test --skip-build --package-path Demo "${flags[@]}" "${demo_args[@]}" >"$logs/run-$run-demo.txt" 2>&1
    demo_status=$?
    "$swift" test --skip-build "${flags[@]}" --filter "$framework_filter" >"$logs/run-$run-framework.txt" 2>&1
    framework_status=$?
    echo "flaky: run $run of $runs: demo $demo_status, framework $framework_status ($((SECONDS - started)) s)"
    for part in demo framework; do
        status_var=${part}_status
        log="$logs/run-$run-$part.txt"
        # A run that failed without naming a test (a crash, a hang the time limit ended) is a finding too.
        if [ "${!status_var}" != 0 ] && ! grep -q '^✘ Test .* recorded an issue' "$log"; then
            echo "✘ Test \"(the $part run itself)\" recorded an issue at run-$run: exited ${!status_var}: $(grep -v '^\s*$' "$log" | tail -1)" >>"$logs/issues.txt"
        fi
        grep -a '^✘ Test .* recorded an issue' "$log" >>"$logs/issues.txt" || true
    done
done

echo
if [ ! -s "$logs/issues.txt" ]; then
    echo "flaky: no test failed in $runs runs (logs: $logs)"
    exit 0
fi
echo "flaky: tests that failed at least once in $runs runs (logs: $logs):"
# One block per test: how many issues, then each distinct message once.
sed -E 's/^✘ Test (.*) recorded an issue (with [0-9]+ arguments? .* )?at ([^ ]+): (.*)$/\1 \2\t\3: \4/' "$logs/issues.txt" \
    | awk -F '\t' '{ count[$1]++; if (!seen[$0]++) messages[$1] = messages[$1] "    " $2 "\n" }
                   END { for (test in count) printf "  %s: %d issue(s)\n%s", test, count[test], messages[test] }'
exit 1
