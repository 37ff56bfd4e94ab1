#!/usr/bin/env bash
# Prints the DHT port of a starting coordinator, read from its JSON-lines log (the "joined" event), once it
# is there: volunteers pass HOST:PORT to --coordinator. Waits up to a minute; exits 1 if none appears.
#   scripts/coordinator-port.sh LOG_OUT
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 LOG_OUT" >&2; exit 2; }
for _ in $(seq 600); do
  port=$(grep '"event":"joined"' "$1" 2>/dev/null | grep -o '"dht_port":[0-9]*' | grep -o '[0-9]*$' | head -1)
  [ -n "$port" ] && { echo "$port"; exit 0; }
  sleep 0.1
done
exit 1
