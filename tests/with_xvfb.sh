#!/bin/sh
# with_xvfb.sh PROGRAM [ARG ...]: runs PROGRAM with DISPLAY naming an X
# server of its own (Xvfb, on a display number it picks itself), which
# stops when PROGRAM ends. Exit status: PROGRAM's.
set -u
number=$(mktemp)
Xvfb -displayfd 3 -screen 0 64x64x24 -nolisten tcp 3>"$number" 2>/dev/null &
server=$!
for _ in $(seq 100); do
    [ -s "$number" ] && break
    sleep 0.1
done
display=$(cat "$number")
rm -f "$number"
if [ -z "$display" ]; then
    kill "$server" 2>/dev/null
    echo "with_xvfb.sh: Xvfb did not start" >&2
    exit 1
fi
DISPLAY=:$display "$@"
status=$?
kill "$server"
wait "$server" 2>/dev/null
exit $status
