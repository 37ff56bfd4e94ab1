#include "core/dht/DhtNode.h"

#include "core/dht/HostPort.h"
#include "core/dht/LatestRecords.h"
#include "core/dht/OpenDhtBytes.h"
#include "core/dht/OwnerKeyQuota.h"
#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordReader.h"
#include "core/dht/RecordRules.h"
#include "core/dht/RecordSubscription.h"
#include "core/dht/RecordValueType.h"
#include "core/security/PeerIdentity.h"

#include <opendht/dhtrunner.h>
#include <opendht/network_utils.h>

#ifdef _WIN32
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#endif

#include <condition_variable>
#include <stdexcept>

namespace sahaj::dht {

namespace {

::dht::InfoHash hashOf(const QString& key) {
    if (key.isEmpty())
        throw std::invalid_argument("a DHT key is empty");
    return ::dht::InfoHash::get(key.toUtf8().toStdString());
}

// Numeric addresses only: binding is about this machine's interfaces, where a name would be ambiguous.
::dht::SockAddr bindAddressOf(const DhtNodeOptions& options) {
    const std::string text = options.bindAddress.toStdString();
    sockaddr_in ipv4{};
    if (inet_pton(AF_INET, text.c_str(), &ipv4.sin_addr) == 1) {
        ipv4.sin_family = AF_INET;
        ipv4.sin_port = htons(options.port);
        return ::dht::SockAddr(reinterpret_cast<const sockaddr*>(&ipv4), sizeof ipv4);
    }
    sockaddr_in6 ipv6{};
    if (inet_pton(AF_INET6, text.c_str(), &ipv6.sin6_addr) == 1) {
        ipv6.sin6_family = AF_INET6;
        ipv6.sin6_port = htons(options.port);
        return ::dht::SockAddr(reinterpret_cast<const sockaddr*>(&ipv6), sizeof ipv6);
    }
    throw std::invalid_argument(
        QStringLiteral("'%1' is not a numeric IPv4 or IPv6 address to bind the DHT node to (e.g. 0.0.0.0)")
            .arg(options.bindAddress)
            .toStdString());
}

std::unique_ptr<::dht::net::DatagramSocket> bindSocket(const DhtNodeOptions& options) {
    const ::dht::SockAddr address = bindAddressOf(options);
    const bool ipv4 = address.getFamily() == AF_INET;
    try {
        // One family only: an unused IPv6 socket would be a second door, and loopback tests need none.
        return std::make_unique<::dht::net::UdpSocket>(ipv4 ? address : ::dht::SockAddr{},
                                                       ipv4 ? ::dht::SockAddr{} : address);
    } catch (const std::exception& e) {
        throw std::runtime_error(
            QStringLiteral("cannot bind the DHT node to UDP %1 port %2 (in use, or not an "
                           "address of this machine): %3")
                .arg(options.bindAddress)
                .arg(options.port)
                .arg(QString::fromStdString(e.what()))
                .toStdString());
    }
}

} // namespace

// How often a node that knows no other pings its bootstrap nodes again (bootstrapAgainIfAlone).
constexpr auto kBootstrapAgainEvery = std::chrono::seconds(3);

DhtNode::DhtNode(DhtNodeOptions options)
    : options_(std::move(options)),
      clock_(options_.clock ? options_.clock : [] { return std::chrono::system_clock::now(); }),
      reader_(std::make_shared<RecordReader>(options_.admission, options_.watchClock)),
      quota_(std::make_shared<OwnerKeyQuota>()), runner_(std::make_unique<::dht::DhtRunner>()) {
    if (options_.listenInterval <= std::chrono::milliseconds(0))
        throw std::invalid_argument("DhtNodeOptions::listenInterval must be positive");
    std::vector<HostPort> bootstrap;
    for (const QString& address : options_.bootstrap)
        bootstrap.push_back(HostPort::parse(address));

    ::dht::DhtRunner::Config config;
    config.dht_config.node_config.network = options_.networkId;
    if (options_.maxStoreBytes == 0 || options_.maxStoreKeys == 0)
        throw std::invalid_argument("DhtNodeOptions::maxStoreBytes and maxStoreKeys must be positive");
    config.dht_config.node_config.max_store_size = static_cast<ssize_t>(options_.maxStoreBytes);
    config.dht_config.node_config.max_store_keys = static_cast<ssize_t>(options_.maxStoreKeys);
    config.threaded = true;
    ::dht::DhtRunner::Context context;
    context.sock = bindSocket(options_);
    runner_->run(config, std::move(context));
    runner_->registerType(RecordValueType::make(reader_, quota_, clock_));
    for (const HostPort& node : bootstrap)
        bootstrap_.emplace_back(node.host.toStdString(), std::to_string(node.port));
    for (const auto& [host, port] : bootstrap_)
        runner_->bootstrap(host, port);
    nextBootstrap_ = std::chrono::steady_clock::now() + kBootstrapAgainEvery;
    poller_ = std::thread([this] { pollListeners(); });
}

DhtNode::~DhtNode() {
    {
        std::lock_guard lock(listenersMutex_);
        stopping_ = true;
    }
    wakePoller_.notify_all();
    poller_.join();
    runner_->join(); // gets still in flight end here; their callbacks own what they use
}

std::uint16_t DhtNode::port() const {
    const std::uint16_t port4 = runner_->getBoundPort(AF_INET);
    return port4 != 0 ? port4 : runner_->getBoundPort(AF_INET6);
}

unsigned DhtNode::connectedNodeCount() const {
    return runner_->getNodesStats(AF_INET).getKnownNodes() + runner_->getNodesStats(AF_INET6).getKnownNodes();
}

void DhtNode::put(const QString& key, const QByteArray& payload, std::chrono::seconds ttl) {
    if (!options_.identity)
        throw std::logic_error("DhtNode::put: this node has no identity to sign records with "
                               "(DhtNodeOptions::identity)");
    if (ttl < std::chrono::seconds(1) || ttl > RecordRules::kMaxTtl)
        throw std::invalid_argument(QStringLiteral("a DHT record ttl is 1 to %1 seconds, got %2")
                                        .arg(RecordRules::kMaxTtl.count())
                                        .arg(ttl.count())
                                        .toStdString());
    QByteArray credential;
    {
        std::lock_guard lock(credentialMutex_);
        credential = options_.credential;
    }
    if (options_.admission && credential.isEmpty())
        throw std::logic_error("DhtNode::put: this run admits peers by token, and this node has none to "
                               "publish with (DhtNodeOptions::credential)");
    const ::dht::InfoHash hash = hashOf(key);
    const auto now = clock_();
    const QByteArray bytes = RecordEnvelope::sign(*options_.identity, bytesOf(hash), now, now + ttl, payload,
                                                  std::move(credential))
                                 .encode();
    auto value = std::make_shared<::dht::Value>(
        RecordValueType::kId, reinterpret_cast<const uint8_t*>(bytes.data()),
        static_cast<size_t>(bytes.size()), RecordRules::valueIdFor(options_.identity->id()));
    {
        const std::lock_guard lock(putsMutex_);
        ++putsInFlight_;
    }
    runner_->put(hash, std::move(value), [this](bool) {
        {
            const std::lock_guard lock(putsMutex_);
            --putsInFlight_;
        }
        putsDone_.notify_all();
    });
}

bool DhtNode::waitForPuts(std::chrono::milliseconds timeout) {
    std::unique_lock lock(putsMutex_);
    return putsDone_.wait_for(lock, timeout, [this] { return putsInFlight_ == 0; });
}

void DhtNode::setCredential(QByteArray credential) {
    std::lock_guard lock(credentialMutex_);
    options_.credential = std::move(credential);
}

std::shared_ptr<DhtLookup> DhtNode::startGet(const QString& key, RecordsCallback done) {
    const ::dht::InfoHash hash = hashOf(key);
    auto lookup = std::make_shared<DhtLookup>(clock_);
    ::dht::GetCallback onValues = [lookup, reader = reader_, hash, onToken = options_.onToken,
                                   clock = clock_](const std::vector<std::shared_ptr<::dht::Value>>& values) {
        for (const auto& value : values) {
            if (auto record = reader->read(bytesOf(hash), value->id, bytesOf(value->data), clock())) {
                if (onToken && record->token)
                    onToken(*record->token);
                lookup->offer(std::move(*record));
            }
        }
        return true;
    };
    ::dht::DoneCallbackSimple onDone = [lookup, done = std::move(done)](bool) {
        lookup->finish();
        if (done)
            done(lookup->records());
    };
    runner_->get(hash, std::move(onValues), std::move(onDone),
                 ::dht::Value::TypeFilter(RecordValueType::kId));
    return lookup;
}

std::vector<DhtRecord> DhtNode::get(const QString& key, std::chrono::milliseconds timeout) {
    return startGet(key, {})->waitFor(timeout);
}

std::shared_ptr<const DhtLookup> DhtNode::lookUp(const QString& key) {
    return startGet(key, {});
}

DhtNode::ListenToken DhtNode::listen(const QString& key, RecordCallback callback) {
    hashOf(key); // a bad key fails here, not later on the poller's thread
    auto subscription = std::make_shared<RecordSubscription>(key, std::move(callback));
    ListenToken token;
    {
        std::lock_guard lock(listenersMutex_);
        token = nextListenToken_++;
        listeners_.emplace(token, subscription);
    }
    poll(subscription); // the records there now, without waiting for the first interval
    return token;
}

void DhtNode::cancelListen(ListenToken token) {
    std::shared_ptr<RecordSubscription> subscription;
    {
        std::lock_guard lock(listenersMutex_);
        const auto found = listeners_.find(token);
        if (found == listeners_.end())
            return;
        subscription = found->second;
        listeners_.erase(found);
    }
    subscription->cancel();
}

void DhtNode::poll(const std::shared_ptr<RecordSubscription>& subscription) {
    if (subscription->beginRound())
        startGet(subscription->key(), [subscription, clock = clock_](std::vector<DhtRecord> records) {
            subscription->deliver(records, clock());
        });
}

void DhtNode::pollListeners() {
    std::unique_lock lock(listenersMutex_);
    while (!wakePoller_.wait_for(lock, options_.listenInterval, [&] { return stopping_; })) {
        std::vector<std::shared_ptr<RecordSubscription>> subscriptions;
        for (const auto& [token, subscription] : listeners_)
            subscriptions.push_back(subscription);
        lock.unlock();
        for (const auto& subscription : subscriptions)
            poll(subscription);
        bootstrapAgainIfAlone();
        lock.lock();
    }
}

// OpenDHT tries its bootstrap nodes again while it is alone, but less and less often: a node whose first
// pings were lost (a loaded coordinator, a full queue on a shaped line, a coordinator restarting) heard
// nobody for minutes (seen in the soak: a restarted volunteer's reader, a volunteer started during the
// others' start-up, one of which gave up). While a node knows no other, it pings its bootstrap nodes
// every few seconds.
void DhtNode::bootstrapAgainIfAlone() {
    const auto now = std::chrono::steady_clock::now();
    if (bootstrap_.empty() || now < nextBootstrap_ || connectedNodeCount() > 0)
        return;
    nextBootstrap_ = now + kBootstrapAgainEvery;
    // A ping to each address, not another entry in OpenDHT's own list (which would grow by one each time).
    std::vector<::dht::SockAddr> addresses;
    for (const auto& [host, port] : bootstrap_)
        for (::dht::SockAddr& address : ::dht::SockAddr::resolve(host, port)) // numeric: no DNS wait
            addresses.push_back(std::move(address));
    if (!addresses.empty())
        runner_->bootstrap(std::move(addresses));
}

std::vector<QString> DhtNode::knownNodeAddresses() const {
    std::vector<QString> addresses;
    for (const ::dht::NodeExport& node : runner_->exportNodes())
        addresses.push_back(QString::fromStdString(
            ::dht::SockAddr(reinterpret_cast<const sockaddr*>(&node.ss), node.sslen).toString()));
    return addresses;
}

std::vector<std::int64_t> DhtNode::freshestRecordOffsetsMs() const {
    return reader_->freshestOffsetsMs();
}

std::uint64_t DhtNode::rejectedRecords() const {
    return reader_->rejected();
}

DhtNode::StoredValues DhtNode::storedValues() const {
    const auto [bytes, values] = runner_->getStoreSize();
    return {bytes, values};
}

} // namespace sahaj::dht
