#pragma once

#include "core/fetch/TransferSettings.h"
#include "core/run/RunManifest.h"

#include <QString>

#include <atomic>

namespace sahaj::fetch {

// The run a volunteer is told to join, wherever it is: a join link, a join file on disk, or the URL of a
// join file (https://, or http:// on a loopback or private address). A downloaded file is bounded by the
// join file's own limit and verified like any other (run::JoinFile) before anything else is fetched; a
// URL never stands for a plain, unsigned manifest.
class JoinSource {
public:
    static bool isUrl(const QString& text);
    // As run::JoinFile::readRun, and for a URL: std::runtime_error when the download fails (with the
    // server's or curl's words), std::invalid_argument when what arrived does not verify.
    static run::RunManifest readRun(const QString& text, bool signedOnly,
                                    const QString& expectedOrganiser = {},
                                    const TransferSettings& settings = {},
                                    const std::atomic<bool>* cancel = nullptr);
};

} // namespace sahaj::fetch
