#!/usr/bin/env bash
# What a newcomer waits for: the cold and incremental debug builds of a package made by
# `appletkit new-applet`, beside the same builds of a package that uses swift-argument-parser
# alone, measured one after the other in this run. Budgets are ratios to that reference.
#
#   Scripts/bench-build.sh APPLETKIT_TOOL [OUTPUT]
#
# The framework is a clone of this repository's HEAD (what a user clones); both packages resolve
# before the clock starts (resolution is the mirror's speed, not the build's), and each builds in
# its own empty .build. Prints "OVER BUDGET" when a ratio is past its budget.
set -euo pipefail

tool=${1:?usage: bench-build.sh APPLETKIT_TOOL [OUTPUT]}
output=${2:-/dev/null}
root=$(cd "$(dirname "$0")/.." && pwd)
cold_budget=${COLD_BUDGET:-2.5}

work=$(mktemp -d "${TMPDIR:-/tmp}/appletkit-bench-build-XXXXXX")
trap 'rm -rf "$work"' EXIT

git clone -q "$root" "$work/AppletKit"
"$tool" new-applet Notes --path "$work" --framework-path "$work/AppletKit" > /dev/null
applet="$work/NotesApplet"

# The reference: one command-line tool on swift-argument-parser, at the version AppletKit uses.
parser_version=$(sed -n 's/.*swift-argument-parser.*from: "\([0-9.]*\)".*/\1/p' "$root/Package.swift" | head -1)
reference="$work/Reference"
mkdir -p "$reference/Sources/Reference"
cat > "$reference/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Reference",
    dependencies: [.package(url: "https://github.com/apple/swift-argument-parser", from: "$parser_version")],
    targets: [
        .executableTarget(name: "Reference", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
    ]
)
EOF
cat > "$reference/Sources/Reference/Reference.swift" <<'EOF'
import ArgumentParser

@main
struct Reference: ParsableCommand {
    @Option(help: "Who to greet.") var name = "world"
    func run() { print("Hello, \(name)!") }
}
EOF

seconds() { # runs "$@", prints its wall-clock seconds
    local start end
    start=$(date +%s.%N)
    "$@" > "$work/last.log" 2>&1 || { cat "$work/last.log" >&2; exit 1; }
    end=$(date +%s.%N)
    awk "BEGIN { print $end - $start }"
}

for package in "$applet" "$reference"; do
    swift package --package-path "$package" resolve > /dev/null
done

applet_cold=$(seconds swift build --package-path "$applet")
reference_cold=$(seconds swift build --package-path "$reference")

# One edit in each: the applet's own source, and the reference's.
source=$(ls "$applet"/Sources/NotesApplet/*.swift | head -1)
echo "// edited" >> "$source"
echo "// edited" >> "$reference/Sources/Reference/Reference.swift"
applet_incremental=$(seconds swift build --package-path "$applet")
reference_incremental=$(seconds swift build --package-path "$reference")

line() { # name, measured, reference, [budget]
    local ratio budget=""
    ratio=$(awk "BEGIN { print $2 / $3 }")
    if [ -n "${4:-}" ]; then
        if awk "BEGIN { exit !($ratio <= $4) }"; then budget=" (budget <= $4x: ok)"; else budget=" (budget <= $4x: OVER BUDGET)"; fi
    fi
    printf "%-36s %7.1f s   reference %6.1f s   ratio %5.2fx%s\n" "$1" "$2" "$3" "$ratio" "$budget"
}

{
    echo "First build of a generated applet package, beside a package on swift-argument-parser alone (debug, $(nproc) cores)"
    line "cold build" "$applet_cold" "$reference_cold" "$cold_budget"
    line "incremental build (one file edited)" "$applet_incremental" "$reference_incremental"
} | tee "$output"
