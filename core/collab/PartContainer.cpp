#include "core/collab/PartContainer.h"

#include "core/collab/SpanSeals.h"
#include "core/collab/TensorEncoding.h"
#include "core/security/Sha256.h"

#include <algorithm>
#include <stdexcept>

namespace sahaj::collab {

PartContainer::PartContainer(const PartitionPlan& plan, wire::Encoding encoding, std::size_t me,
                             std::vector<float> vector)
    : plan_(plan), encoding_(std::move(encoding)), me_(me), vector_(std::move(vector)) {
    const auto members = static_cast<std::size_t>(plan_.memberCount());
    if (me_ >= members)
        throw std::invalid_argument("the member is not in the plan");
    if (!vector_.empty() && static_cast<std::int64_t>(vector_.size()) != plan_.totalElements())
        throw std::invalid_argument("the vector has " + std::to_string(vector_.size()) +
                                    " values, the plan " + std::to_string(plan_.totalElements()));
    owed_.resize(members);
    averaged_.resize(members);
    arrived_.resize(members);
    whole_.assign(members, false);
    taken_.assign(members, false);
    failed_.assign(members, false);
    if (!sends())
        return;
    for (std::size_t a = 0; a < members; ++a) {
        const auto partCount = plan_.partCount(static_cast<std::int64_t>(a));
        if (a == me_ || partCount == 0)
            continue;
        aggregators_.push_back(a);
        for (std::int64_t p = 0; p < partCount; ++p)
            owed_[a].push_back(p);
    }
}

std::span<const float> PartContainer::values(const ElementRange& range) const {
    return std::span<const float>(vector_).subspan(static_cast<std::size_t>(range.offset),
                                                   static_cast<std::size_t>(range.size));
}

std::optional<std::int64_t> PartContainer::nextPart(std::size_t aggregator) const {
    checkMember(aggregator);
    if (failed_[aggregator] || owed_[aggregator].empty())
        return std::nullopt;
    return owed_[aggregator].front();
}

void PartContainer::sent(std::size_t aggregator) {
    checkMember(aggregator);
    if (!owed_[aggregator].empty())
        owed_[aggregator].pop_front();
}

bool PartContainer::awaits(std::size_t aggregator, std::int64_t p) const {
    checkMember(aggregator);
    return p >= 0 && p < plan_.partCount(static_cast<std::int64_t>(aggregator)) && !failed_[aggregator] &&
           !whole_[aggregator] && !arrived_[aggregator].count(p);
}

std::span<const float> PartContainer::place(std::size_t aggregator, std::int64_t p,
                                            const zmq::message_t& data) {
    if (!awaits(aggregator, p))
        throw std::logic_error("part " + std::to_string(p) + " of member " + std::to_string(aggregator) +
                               "'s span is not awaited");
    const auto a = static_cast<std::int64_t>(aggregator);
    const ElementRange span = plan_.span(a);
    const ElementRange range = plan_.part(a, p);
    std::unique_ptr<float[]>& averaged = averaged_[aggregator];
    // Not initialised: its pages are touched as the parts arrive, not all at once.
    if (!averaged)
        averaged = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(span.size));
    const std::span<float> out = slotOf(aggregator, p);
    TensorEncoding::decode(data, range.size, encoding_, out.data());
    return out;
}

std::span<float> PartContainer::slotOf(std::size_t aggregator, std::int64_t p) const {
    const auto a = static_cast<std::int64_t>(aggregator);
    const ElementRange range = plan_.part(a, p);
    return std::span<float>(averaged_[aggregator].get() + (range.offset - plan_.span(a).offset),
                            static_cast<std::size_t>(range.size));
}

void PartContainer::checkWhole(std::size_t aggregator) const {
    checkMember(aggregator);
    if (!whole_[aggregator] || !averaged_[aggregator])
        throw std::logic_error("the span of member " + std::to_string(aggregator) + " is not whole");
}

bool PartContainer::received(std::size_t aggregator, std::int64_t p) {
    if (!awaits(aggregator, p) || !averaged_[aggregator])
        return false;
    arrived_[aggregator].insert(p);
    if (static_cast<std::int64_t>(arrived_[aggregator].size()) <
        plan_.partCount(static_cast<std::int64_t>(aggregator)))
        return false;
    whole_[aggregator] = true;
    stopSending(aggregator);
    return true;
}

std::span<const float> PartContainer::averaged(std::size_t aggregator, std::int64_t p) const {
    checkWhole(aggregator);
    return slotOf(aggregator, p);
}

std::string PartContainer::digest(std::size_t aggregator) const {
    checkWhole(aggregator);
    security::Sha256 hash;
    SpanSeals::addValues(hash, averaged_[aggregator].get(),
                         static_cast<std::size_t>(plan_.span(static_cast<std::int64_t>(aggregator)).size));
    return hash.result().toStdString();
}

void PartContainer::take(std::size_t aggregator) {
    checkMember(aggregator);
    if (!whole_[aggregator] || !averaged_[aggregator] || failed_[aggregator])
        throw std::logic_error("the span of member " + std::to_string(aggregator) + " is not whole");
    const ElementRange span = plan_.span(static_cast<std::int64_t>(aggregator));
    std::copy_n(averaged_[aggregator].get(), span.size, vector_.begin() + span.offset);
    averaged_[aggregator].reset();
    taken_[aggregator] = true;
}

void PartContainer::fail(std::size_t aggregator) {
    checkMember(aggregator);
    failed_[aggregator] = true;
    owed_[aggregator].clear();
    averaged_[aggregator].reset();
}

bool PartContainer::outstanding() const {
    return std::any_of(aggregators_.begin(), aggregators_.end(),
                       [this](std::size_t a) { return !failed_[a] && (!owed_[a].empty() || !taken_[a]); });
}

void PartContainer::checkMember(std::size_t aggregator) const {
    if (aggregator >= failed_.size())
        throw std::out_of_range("member " + std::to_string(aggregator) + " is not in the plan");
}

} // namespace sahaj::collab
