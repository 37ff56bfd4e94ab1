#!/usr/bin/env bash
# Builds a shaped test network out of Linux network namespaces, for benchmarks of the collaboration on
# links of known speed: one namespace per peer, each on a point-to-point link to a hub namespace that routes
# between them; every peer's link is limited to its own rate in both directions with tc tbf (upload on the
# peer's end of its veth pair, download on the hub's end). Only addresses inside these namespaces are used
# (10.77.0.0/24; the hub's end of every link is 10.77.0.254). Routed rather than bridged, so that each peer
# keeps one neighbour entry, not one per other peer: the kernel's neighbour table is shared by all
# namespaces and overflows past about 32 bridged peers (scripts/netns/internet.sh says more).
#
# Usage (as root): scripts/netns/setup.sh PREFIX RATE_MBIT...
#   PREFIX    names the namespaces: PREFIX-hub, PREFIX-0, PREFIX-1, ...
#   RATE_MBIT one per peer, in Mbit/s; 0 leaves that peer's link unshaped
# Prints one line per peer: "namespace address rate_mbit". Running it again rebuilds the network.
# scripts/netns/teardown.sh PREFIX removes it.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 PREFIX RATE_MBIT..." >&2
    exit 2
fi
if [[ $(id -u) -ne 0 ]]; then
    echo "$0: needs root (ip netns, tc)" >&2
    exit 1
fi
prefix=$1
shift
if [[ ! $prefix =~ ^[a-z][a-z0-9]{0,7}$ ]]; then
    echo "$0: PREFIX must be 1-8 lowercase letters or digits, starting with a letter" >&2
    exit 2
fi
if [[ $# -gt 200 ]]; then
    echo "$0: at most 200 peers" >&2
    exit 2
fi

"$(dirname "$0")/teardown.sh" "$prefix"

hub="$prefix-hub"
ip netns add "$hub"
ip -n "$hub" link set lo up
ip netns exec "$hub" sysctl -q -w net.ipv4.ip_forward=1
gateway=10.77.0.254

# tbf needs a bucket of at least one timer tick of traffic; 64 KiB or 10 ms of the rate, whichever is larger.
shape() { # namespace device rate_mbit
    local burst=$(( $3 * 1000000 / 8 / 100 ))
    (( burst < 65536 )) && burst=65536
    ip netns exec "$1" tc qdisc replace dev "$2" root tbf rate "${3}mbit" burst "$burst" latency 100ms
}

index=0
for rate in "$@"; do
    if [[ ! $rate =~ ^[0-9]+$ ]]; then
        echo "$0: rate '$rate' is not a whole number of Mbit/s" >&2
        exit 2
    fi
    ns="$prefix-$index"
    ip netns add "$ns"
    ip link add "p$prefix$index" type veth peer name "h$prefix$index"
    ip link set "p$prefix$index" netns "$ns"
    ip link set "h$prefix$index" netns "$hub"
    ip -n "$ns" link set lo up
    ip -n "$ns" link set "p$prefix$index" up
    ip -n "$hub" link set "h$prefix$index" up
    ip -n "$ns" addr add "10.77.0.$((index + 1))/32" dev "p$prefix$index"
    ip -n "$ns" route add "$gateway/32" dev "p$prefix$index"
    ip -n "$ns" route add default via "$gateway" dev "p$prefix$index"
    ip -n "$hub" addr add "$gateway/32" dev "h$prefix$index"
    ip -n "$hub" route add "10.77.0.$((index + 1))/32" dev "h$prefix$index"
    if (( rate > 0 )); then
        shape "$ns" "p$prefix$index" "$rate"  # the peer's upload
        shape "$hub" "h$prefix$index" "$rate" # the peer's download
    fi
    echo "$ns 10.77.0.$((index + 1)) $rate"
    index=$((index + 1))
done
