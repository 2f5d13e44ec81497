#!/bin/sh
# A throwaway desktop keyring for tests of SecureState: a private session bus (dbus-daemon, through
# dbus-run-session) with gnome-keyring's Secret Service on it, its login keyring made and unlocked
# with a fixed password, everything in FOLDER (HOME, XDG_DATA_HOME and XDG_RUNTIME_DIR point
# there), so nothing of the user's is read or touched.
#
#   Scripts/test-keyring.sh FOLDER
#
# Prints "ready <bus address> <gnome-keyring pid>" once the keyring can be used, or
# "failed: <why>" and exits 1. Then it reads commands, one a line, from its standard input:
#
#   stop    ends gnome-keyring; the bus stays ("stopped")
#   start   starts it again, unlocked with the same password ("ready <address> <pid>")
#   lock    locks the login keyring ("locked")
#
# When its standard input ends (the test process is gone, however it ended) it ends gnome-keyring,
# dbus-run-session ends the bus, and FOLDER is removed. The bus has no service folders, so nothing
# is ever started on it by D-Bus activation: a keyring that was stopped stays stopped.
#
# By hand: `Scripts/test-keyring.sh /tmp/keyring` in one terminal, then in another
# `DBUS_SESSION_BUS_ADDRESS=<address> appletkit --diagnose`; Ctrl-D in the first ends it.
set -u

password=appletkit-test

if [ "${1:-}" != --inside ]; then
    folder=${1:?usage: test-keyring.sh FOLDER}
    for program in dbus-run-session dbus-daemon dbus-send gnome-keyring-daemon; do
        if ! command -v "$program" >/dev/null 2>&1; then
            echo "failed: $program is not installed (make test installs dbus and gnome-keyring with apt-get)"
            exit 1
        fi
    done
    mkdir -p "$folder/home" "$folder/runtime" || { echo "failed: cannot make $folder"; exit 1; }
    chmod 700 "$folder" "$folder/home" "$folder/runtime"
    cat >"$folder/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$folder/runtime</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
    export HOME="$folder/home" XDG_DATA_HOME="$folder/home/.local/share" XDG_CONFIG_HOME="$folder/home/.config"
    export XDG_CACHE_HOME="$folder/home/.cache" XDG_RUNTIME_DIR="$folder/runtime"
    unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
    dbus-run-session --config-file="$folder/bus.conf" -- sh "$0" --inside "$folder"
    status=$?
    # A keyring that ran is thrown away; one that failed to start leaves its log for the caller
    # (which removes FOLDER once it has read it).
    [ $status = 0 ] && rm -rf "$folder"
    exit $status
fi

# Inside dbus-run-session: DBUS_SESSION_BUS_ADDRESS is the private bus.
folder=$2
keyring=

has_service() {
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'
}

start_keyring() {
    printf '%s' "$password" | gnome-keyring-daemon --foreground --components=secrets --unlock >>"$folder/keyring.log" 2>&1 &
    keyring=$!
    tries=0
    until has_service; do
        tries=$((tries + 1))
        if [ $tries -gt 200 ] || ! kill -0 "$keyring" 2>/dev/null; then
            echo "failed: gnome-keyring-daemon did not come up on the bus within 10 s: $(tail -n 3 "$folder/keyring.log" | tr '\n' ' ')"
            return 1
        fi
        sleep 0.05
    done
    echo "ready $DBUS_SESSION_BUS_ADDRESS $keyring"
}

stop_keyring() {
    [ -n "$keyring" ] && kill "$keyring" 2>/dev/null && wait "$keyring" 2>/dev/null
    keyring=
    tries=0
    while has_service && [ $tries -lt 200 ]; do
        tries=$((tries + 1))
        sleep 0.05
    done
}

start_keyring || exit 1
while read -r command; do
    case $command in
        stop) stop_keyring; echo stopped ;;
        start) start_keyring || exit 1 ;;
        lock)
            if dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
                org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/aliases/default >/dev/null 2>&1; then
                echo locked
            else
                echo "failed: could not lock the keyring"
            fi ;;
        *) echo "failed: unknown command '$command'" ;;
    esac
done
stop_keyring
exit 0
