#!/usr/bin/env bash
# Removes the namespaces scripts/netns/setup.sh made for PREFIX (their veth pairs go with them).
set -euo pipefail
if [[ $# -ne 1 ]]; then
    echo "usage: $0 PREFIX" >&2
    exit 2
fi
for ns in $(ip netns list | awk '{print $1}' | grep -E "^$1-(hub|[0-9]+)$" || true); do
    ip netns delete "$ns"
done
# A setup interrupted between creating a veth pair and moving its ends leaves them in this namespace.
for link in $(ip -o link show | awk -F': ' '{print $2}' | cut -d@ -f1 | grep -E "^[ph]$1[0-9]+$" || true); do
    ip link delete "$link" 2>/dev/null || true
done
