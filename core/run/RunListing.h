#pragma once

#include <QString>

#include <cstdint>

namespace sahaj::run {

// One run as a run directory lists it (RunDirectory): what a volunteer reads before choosing it, and how
// to join it. The directory's signer vouches for the organiser's key, which the volunteer then pins: a
// join file that the listed organiser did not sign is refused (engine::JoinRequest::organiser).
struct RunListing {
    QString title;        // the run's name, one line
    QString description;  // what it trains and why, a paragraph
    QString organiser;    // who runs it, as people know them
    QString organiserKey; // 64 lowercase hex digits: the Ed25519 key the run's join file is signed with
    QString join;         // the join link (sahaj:join/…) or the URL of the join file; never a local path
    std::int64_t parameters = 0;    // the model's parameter count
    std::int64_t downloadBytes = 0; // what joining downloads before training starts (data, tokenizer)

    bool operator==(const RunListing&) const = default;
};

} // namespace sahaj::run
