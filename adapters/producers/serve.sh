#!/usr/bin/env bash
# Starts and stops a producer server of adapters/producers/ (the one copy of
# this, for scripts/producers-report.sh and smoke.py).
#
#   adapters/producers/serve.sh start NAME PORT DIR
#       start NAME/server.py (or the executable NAME/serve) on
#       127.0.0.1:PORT in its own session (log in
#       DIR/NAME.server.log, process id in DIR/NAME.pid, the marker of its
#       processes in DIR/NAME.mark), wait until its GET /versions answers
#       (up to 180 s) and save that answer as DIR/NAME.versions.json.
#       Exit 0 when it is up; 1 when it is not installed or did not come up
#       (then it is stopped again).
#   adapters/producers/serve.sh stop NAME DIR
#       end the server's whole process group and every process carrying
#       its marker, also one that daemonized out of the group (TERM, then
#       KILL after 10 s); exit 1 only if one is still there after that.
# AGUI_PRODUCERS_DIR names another folder of producers (NAME/server.py,
# NAME/.venv/bin/python; or NAME/server.mjs, NAME/node_modules/.bin/node)
# [default: this script's folder].
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
producers="${AGUI_PRODUCERS_DIR:-$here}"

# The server and all it starts inherit AGUI_PRODUCER_SERVER=<mark> in their
# environment; a process that daemonizes (a double fork and setsid) leaves
# the process group but keeps the mark.
members() { # PGID MARK: the pids of the group and of every marked process
  local pgid="$1" mark="$2" e p
  if [ -n "$pgid" ]; then
    ps -eo pid=,pgid= | awk -v g="$pgid" '$2 == g { print $1 }'
  fi
  if [ -n "$mark" ]; then
    for e in /proc/[0-9]*/environ; do
      p="${e#/proc/}"; p="${p%/environ}"
      [ "$p" = "$$" ] && continue
      grep -qzxF "AGUI_PRODUCER_SERVER=$mark" "$e" 2>/dev/null && echo "$p"
    done
  fi
}

signal_all() { # SIGNAL PGID MARK
  local p
  for p in $(members "$2" "$3"); do kill "-$1" "$p" 2>/dev/null; done
}

stop() { # NAME DIR
  local pidfile="$2/$1.pid" markfile="$2/$1.mark" pid="" mark=""
  [ -f "$pidfile" ] && pid="$(cat "$pidfile")"
  [ -f "$markfile" ] && mark="$(cat "$markfile")"
  rm -f "$pidfile" "$markfile"
  [ -n "$pid$mark" ] || return 0
  signal_all TERM "$pid" "$mark"
  for _ in $(seq 1 100); do
    [ -z "$(members "$pid" "$mark")" ] && return 0
    sleep 0.1
  done
  signal_all KILL "$pid" "$mark"
  for _ in $(seq 1 20); do
    [ -z "$(members "$pid" "$mark")" ] && return 0
    sleep 0.1
  done
  return 1
}

start() { # NAME PORT DIR
  local name="$1" port="$2" dir="$3"
  local python="$producers/$name/.venv/bin/python" mark="$name-$$-$RANDOM$RANDOM"
  # A producer that is no Python server: a Node one (NAME/server.mjs) runs
  # on the Node its package pins (NAME/node_modules/.bin/node); any other
  # ships an executable NAME/serve taking the port (rust/: the built binary).
  local cmd=("$python" "$producers/$name/server.py")
  if [ -f "$producers/$name/server.mjs" ]; then
    cmd=("$producers/$name/node_modules/.bin/node" "$producers/$name/server.mjs")
    [ -x "${cmd[0]}" ] || { echo "not installed (adapters/producers/install.sh $name)" >&2; return 1; }
  elif [ -x "$producers/$name/serve" ]; then
    cmd=("$producers/$name/serve")
  elif [ ! -x "$python" ]; then
    echo "not installed (adapters/producers/install.sh $name)" >&2
    return 1
  fi
  mkdir -p "$dir"
  echo "$mark" >"$dir/$name.mark"
  (cd "$root" && AGUI_PRODUCER_SERVER="$mark" exec setsid "${cmd[@]}" "$port" \
    >"$dir/$name.server.log" 2>&1 </dev/null) &
  echo $! >"$dir/$name.pid"
  for _ in $(seq 1 360); do
    if ! kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null; then
      echo "the server exited (see $dir/$name.server.log)" >&2
      stop "$name" "$dir"
      return 1
    fi
    if curl -fsS --max-time 5 "http://127.0.0.1:$port/versions" -o "$dir/$name.versions.json" 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  echo "the server did not come up in 180 s (see $dir/$name.server.log)" >&2
  stop "$name" "$dir"
  return 1
}

case "${1:-}" in
  start) [ $# -eq 4 ] || { echo "usage: serve.sh start NAME PORT DIR" >&2; exit 2; }; start "$2" "$3" "$4" ;;
  stop) [ $# -eq 3 ] || { echo "usage: serve.sh stop NAME DIR" >&2; exit 2; }; stop "$2" "$3" ;;
  *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
