#!/usr/bin/env bash
# Measures the release build of appletkit the way a user meets it: in a private tmux server
# (its own socket, none of your tmux configuration) at 120x40, running under bash.
#
#   first frame    time from the shell exec'ing the binary to the terminal receiving the end of
#                  the first frame (its footer), median of RUNS launches; also when the first bytes
#                  of the frame (the switch to the alternate screen) arrived.
#   one '+' press  bytes the app writes to the terminal for one '+' in the Counter tab, once the
#                  first frame has settled, median of PRESSES presses.
#   tabs workload  KEYS keystrokes cycling "1 2 3 ] [ 2 j j k 1" sent one at a time (as typed, so
#                  no frames coalesce): CPU time the app used (from /proc) and bytes it wrote.
#
# Usage: Scripts/measure.sh            (RUNS=10 PRESSES=5 by default; e.g. RUNS=20 Scripts/measure.sh)
# Needs: swift, tmux, perl (with Time::HiRes, standard in perl). Results on stdout, progress on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-10}
PRESSES=${PRESSES:-5}
KEYS=${KEYS:-1000}

for tool in swift tmux perl; do
    command -v "$tool" >/dev/null || { echo "measure.sh: $tool is required but not installed" >&2; exit 1; }
done
perl -MTime::HiRes -e 1 2>/dev/null || { echo "measure.sh: perl's Time::HiRes module is required" >&2; exit 1; }

echo "Building release (.build-release)..." >&2
swift build -c release --scratch-path .build-release >&2
BIN="$(swift build -c release --scratch-path .build-release --show-bin-path)/appletkit"
[ -x "$BIN" ] || { echo "measure.sh: no binary at $BIN after the build" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/appletkit-measure.XXXXXX")"
SOCKET="appletkit-measure-$$"
PROMPT='measure$'
tm() { env -u TMUX -u TMUX_PANE tmux -u -L "$SOCKET" "$@"; }
cleanup() {
    tm kill-server 2>/dev/null || true
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCKET"
    rm -rf "$WORK"
}
trap cleanup EXIT

# Reads what the pane shows (via pipe-pane) and records when the frame's first bytes (the switch
# to the alternate screen) and its end (the footer's last item) arrive: "name time offset total".
cat > "$WORK/stamp.pl" <<'PERL'
use strict; use warnings; use Time::HiRes qw(time);
my $dir = shift;
open(my $raw, '>>', "$dir/raw") or die; binmode $raw;
open(my $log, '>>', "$dir/stamps") or die;
$raw->autoflush(1); $log->autoflush(1);
my $seen = ''; my %done;
my %markers = (start => "\e[?1049h", frame => "Quit");
while (1) {
    my $n = sysread(STDIN, my $chunk, 65536);
    last unless $n;
    my $t = time;
    print $raw $chunk;
    $seen .= $chunk;
    for my $name (sort keys %markers) {
        next if $done{$name};
        my $at = index($seen, $markers{$name});
        if ($at >= 0) { $done{$name} = 1; printf $log "%s %.6f %d %d\n", $name, $t, $at, length $seen; }
    }
}
PERL
printf "PS1='%s '\n" "$PROMPT" > "$WORK/bashrc"

tm -f /dev/null new-session -d -s m -x 120 -y 40 -c "$WORK" \
    env -i HOME="$WORK" PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 APP="$BIN" \
    bash --rcfile "$WORK/bashrc" --noprofile \; set-option -g status off

fail() { echo "measure.sh: $*" >&2; tm capture-pane -p -t m >&2 || true; exit 1; }
# wait_until <description> <command...>: polls every 10 ms, up to 10 s.
wait_until() {
    local what=$1; shift
    local deadline=$((SECONDS + 10))
    until "$@"; do
        ((SECONDS < deadline)) || fail "timed out waiting for $what"
        sleep 0.01
    done
}
screen_has() { tm capture-pane -p -t m | grep -qF -- "$1"; }
at_prompt() { [ "$(tm capture-pane -p -t m | grep -v '^[[:space:]]*$' | tail -n 1)" = "$PROMPT" ]; }
has_stamp() { grep -q "^$1 " "$WORK/stamps" 2>/dev/null; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) printf "%.1f\n", v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", (b - a) * 1000 }'; }

wait_until "the shell prompt" at_prompt

# --- First frame -----------------------------------------------------------------------------
frames=() starts=() sizes=()
for ((i = 1; i <= RUNS; i++)); do
    rm -f "$WORK/t0" "$WORK/stamps" "$WORK/raw"
    tm send-keys -t m -l 'clear'; tm send-keys -t m Enter
    wait_until "a clear screen" at_prompt
    tm pipe-pane -t m -o "exec perl '$WORK/stamp.pl' '$WORK'"
    sleep 0.2   # let perl start reading
    # The subshell records the time and becomes the app (EPOCHREALTIME: bash 5; else date).
    tm send-keys -t m -l '( echo "${EPOCHREALTIME:-$(date +%s.%N)}" > t0; exec "$APP" )'
    tm send-keys -t m Enter
    wait_until "the first frame (run $i)" has_stamp frame
    t0=$(cat "$WORK/t0")
    frames+=("$(ms_between "$t0" "$(awk '$1 == "frame" { print $2 }' "$WORK/stamps")")")
    starts+=("$(ms_between "$t0" "$(awk '$1 == "start" { print $2 }' "$WORK/stamps")")")
    # Bytes from the switch to the alternate screen to the end of the read that held the footer.
    sizes+=("$(awk '$1 == "start" { s = $3 } $1 == "frame" { f = $4 } END { print f - s }' "$WORK/stamps")")
    tm send-keys -t m -l q
    wait_until "the app to quit (run $i)" at_prompt
    tm pipe-pane -t m
    echo "  run $i: first bytes ${starts[-1]} ms, first frame ${frames[-1]} ms" >&2
done

# --- Bytes for one '+' -----------------------------------------------------------------------
tm send-keys -t m -l 'clear'; tm send-keys -t m Enter
wait_until "a clear screen" at_prompt
# Each part starts from a fresh state folder: the counter is saved, so it would not start at 0.
tm send-keys -t m -l '"$APP" --state-dir press-state'; tm send-keys -t m Enter
wait_until "the Counter tab" screen_has "Count: 0"
sleep 0.3   # let the first frame settle
presses=()
for ((n = 1; n <= PRESSES; n++)); do
    out="$WORK/press-$n"
    : > "$out"
    tm pipe-pane -t m -o "exec cat >> '$out'"
    sleep 0.1
    tm send-keys -t m -l '+'
    wait_until "Count: $n" screen_has "Count: $n"
    sleep 0.1   # anything else the app writes for this press
    tm pipe-pane -t m
    sleep 0.05  # cat drains the pipe and exits
    presses+=("$(wc -c < "$out" | tr -d ' ')")
    echo "  press $n: ${presses[-1]} bytes" >&2
done
tm send-keys -t m -l q
wait_until "the app to quit" at_prompt

# --- Tabs workload ---------------------------------------------------------------------------
tm send-keys -t m -l 'clear'; tm send-keys -t m Enter
wait_until "a clear screen" at_prompt
tm send-keys -t m -l 'exec "$APP" --state-dir workload-state'; tm send-keys -t m Enter
wait_until "the Counter tab" screen_has "Count: 0"
sleep 0.3
pid=$(tm display -p -t m '#{pane_pid}')
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
ticks0=$(cpu_ticks)
out="$WORK/workload"
: > "$out"
tm pipe-pane -t m -o "exec cat >> '$out'"
sleep 0.1
keys=(1 2 3 ']' '[' 2 j j k 1)
for ((i = 0; i < KEYS; i++)); do
    tm send-keys -t m -l "${keys[$((i % 10))]}"
    sleep 0.003
done
wait_until "the last key to land" screen_has "Count: 0"
sleep 0.5
ticks1=$(cpu_ticks)
tm pipe-pane -t m
sleep 0.05
workload_cpu=$(awk -v t="$((ticks1 - ticks0))" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }')
workload_bytes=$(wc -c < "$out" | tr -d ' ')
tm send-keys -t m -l q

echo
echo "appletkit release build, tmux $(tmux -V | cut -d' ' -f2) at 120x40, TERM=xterm-256color"
echo "first frame: $(printf '%s\n' "${frames[@]}" | median) ms (median of $RUNS; first bytes at $(printf '%s\n' "${starts[@]}" | median) ms, $(printf '%s\n' "${sizes[@]}" | median | cut -d. -f1) bytes)"
echo "one '+' press: $(printf '%s\n' "${presses[@]}" | median | cut -d. -f1) bytes (median of $PRESSES: ${presses[*]})"
echo "what the first press sent (od -c):"
od -c "$WORK/press-1"
echo "tabs workload: $KEYS keys one at a time, ${workload_cpu} s CPU, ${workload_bytes} bytes written"
