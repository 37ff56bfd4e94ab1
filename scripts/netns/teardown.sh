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
