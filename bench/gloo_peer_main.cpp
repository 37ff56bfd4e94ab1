// sahaj-gloo-peer: one rank of c10d's ProcessGroupGloo all-reduce (gloo's ring), the baseline that
// sahaj-bench-allreduce measures Sahaj's butterfly against on the same shaped links and the same vector.
//
//   sahaj-gloo-peer --rank R --world N --store-addr ADDR --store-port P --iface IFACE --size V
//                   [--dtype f16|f32] [--timeout-ms MS]
//
// Rank 0 hosts the c10d::TCPStore that the ranks meet through; every rank binds gloo's TCP device to IFACE
// (its namespace's link). The vector is sahaj-allreduce-peer's test vector for index R, so both sides
// average the same values. Connection setup (store, the group's full mesh of pairs) and one warm-up
// all-reduce of a small tensor are not timed. Timed: fp32 → wire dtype, one all-reduce (SUM), the division
// by N and the conversion back to fp32, as a trainer would do it. Prints {"seconds", "setup_seconds",
// "dtype", "checksum"} as a JSON line.
#include "tests/collab/AllReduceTestVector.h"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/torch.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

struct PeerOptions {
    int rank = 0;
    int world = 0;
    std::string storeAddress;
    int storePort = 0;
    std::string interface;
    std::int64_t size = 0;
    at::ScalarType dtype = at::kHalf;
    std::chrono::milliseconds timeout{600000};
};

long long integerOption(const std::map<std::string, std::string>& values, const std::string& name,
                        long long low, long long high) {
    const auto found = values.find(name);
    if (found == values.end())
        throw std::invalid_argument("--" + name + " is required");
    std::size_t used = 0;
    long long value = 0;
    try {
        value = std::stoll(found->second, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != found->second.size() || value < low || value > high)
        throw std::invalid_argument("--" + name + " must be a whole number from " + std::to_string(low) +
                                    " to " + std::to_string(high) + ", not '" + found->second + "'");
    return value;
}

std::string textOption(const std::map<std::string, std::string>& values, const std::string& name) {
    const auto found = values.find(name);
    if (found == values.end() || found->second.empty())
        throw std::invalid_argument("--" + name + " is required");
    return found->second;
}

PeerOptions parse(int argc, char** argv) {
    std::map<std::string, std::string> values{{"dtype", "f16"}, {"timeout-ms", "600000"}};
    for (int i = 1; i < argc; i += 2) {
        const std::string name = argv[i];
        if (name.rfind("--", 0) != 0 || i + 1 >= argc)
            throw std::invalid_argument("expected '--name value' pairs, got '" + name + "'");
        values[name.substr(2)] = argv[i + 1];
    }
    PeerOptions options;
    options.world = static_cast<int>(integerOption(values, "world", 2, 1024));
    options.rank = static_cast<int>(integerOption(values, "rank", 0, options.world - 1));
    options.storeAddress = textOption(values, "store-addr");
    options.storePort = static_cast<int>(integerOption(values, "store-port", 1, 65535));
    options.interface = textOption(values, "iface");
    // 2^31 values: gloo counts elements in int on some paths; sahajBERT needs 18.1 M.
    options.size = integerOption(values, "size", options.world, (1LL << 31) - 1);
    options.timeout = std::chrono::milliseconds(integerOption(values, "timeout-ms", 1000, 3600000));
    const std::string dtype = values["dtype"];
    if (dtype == "f16")
        options.dtype = at::kHalf;
    else if (dtype == "f32")
        options.dtype = at::kFloat;
    else
        throw std::invalid_argument("--dtype must be f16 or f32, not '" + dtype + "'");
    for (const auto& [name, value] : values)
        if (name != "rank" && name != "world" && name != "store-addr" && name != "store-port" &&
            name != "iface" && name != "size" && name != "dtype" && name != "timeout-ms")
            throw std::invalid_argument("unknown option --" + name);
    return options;
}

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

int runPeer(const PeerOptions& options) {
    std::vector<float> local =
        sahaj::test::allReduceTestVector(static_cast<std::uint64_t>(options.rank) + 1, options.size);
    const at::Tensor values = torch::from_blob(local.data(), {options.size}, at::kFloat);

    const Clock::time_point setupStart = Clock::now();
    c10d::TCPStoreOptions storeOptions;
    storeOptions.port = static_cast<std::uint16_t>(options.storePort);
    storeOptions.isServer = options.rank == 0;
    storeOptions.numWorkers = static_cast<std::size_t>(options.world);
    storeOptions.timeout = options.timeout;
    const auto store = c10::make_intrusive<c10d::TCPStore>(options.storeAddress, storeOptions);
    const auto groupOptions = c10d::ProcessGroupGloo::Options::create(options.timeout);
    groupOptions->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(options.interface));
    // The constructor connects the full mesh of pairs through the store.
    const auto group =
        c10::make_intrusive<c10d::ProcessGroupGloo>(store, options.rank, options.world, groupOptions);
    // The warm-up also lines the ranks up, so the timed all-reduce starts together on every rank.
    std::vector<at::Tensor> warmUp{torch::ones({4096}, options.dtype)};
    group->allreduce(warmUp)->wait();
    const double setupSeconds = secondsSince(setupStart);

    const Clock::time_point start = Clock::now();
    std::vector<at::Tensor> wire{values.to(options.dtype)};
    group->allreduce(wire)->wait();
    wire[0].div_(options.world);
    const at::Tensor averaged = wire[0].to(at::kFloat);
    const double seconds = secondsSince(start);

    std::cout << nlohmann::json{{"seconds", seconds},
                                {"setup_seconds", setupSeconds},
                                {"dtype", options.dtype == at::kHalf ? "f16" : "f32"},
                                {"checksum", averaged.sum().item<double>()}}
                     .dump()
              << std::endl;
    // Rank 0 hosts the store: leave only after every rank is done with it.
    group->barrier()->wait();
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    PeerOptions options;
    try {
        options = parse(argc, argv);
    } catch (const std::invalid_argument& error) {
        std::cerr << "sahaj-gloo-peer: " << error.what()
                  << "\nusage: sahaj-gloo-peer --rank R --world N --store-addr ADDR --store-port P --iface "
                     "IFACE --size V [--dtype f16|f32] [--timeout-ms MS]\n";
        return 2;
    }
    try {
        return runPeer(options);
    } catch (const std::exception& error) {
        std::cerr << "sahaj-gloo-peer (rank " << options.rank << "): " << error.what() << "\n";
        return 1;
    }
}
