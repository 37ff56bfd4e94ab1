#pragma once

#include "core/fetch/TransferSettings.h"
#include "core/run/RunDirectory.h"

#include <QString>

#include <atomic>

namespace sahaj::fetch {

// The run directory a volunteer set in the settings: its URL (https://, or http:// on a loopback or
// private address) and the key it must be signed with. Downloaded within the directory's size limit and
// verified (run::RunDirectory) before anything in it is shown. Blocking: call it off the GUI thread.
class RunDirectorySource {
public:
    // std::invalid_argument when the URL is not one a directory may have or what arrived does not verify;
    // std::runtime_error when the download fails (with the server's or curl's words).
    static run::RunDirectory read(const QString& url, const QString& key,
                                  const TransferSettings& settings = {},
                                  const std::atomic<bool>* cancel = nullptr);
};

} // namespace sahaj::fetch
