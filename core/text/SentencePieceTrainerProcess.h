#pragma once

#include <QString>
#include <QStringList>

namespace sahaj::text {

// Runs sentencepiece's trainer, Debian's `spm_train`, as a child process. Debian's libsentencepiece
// carries its own copy of protobuf and exports its symbols, while libtorch links the system
// libprotobuf: linked into one process the two interpose on each other and the program crashes. A
// child process keeps them apart, and the trainer's global state and threads go with it.
class SentencePieceTrainerProcess {
public:
    struct Result {
        bool ok = false;
        QString message; // sentencepiece's error text when !ok
    };

    // `arguments` are spm_train flags (--name=value). Throws std::runtime_error when spm_train is not
    // installed or cannot start; a failed training returns ok = false with the reason.
    static Result run(const QStringList& arguments);
};

} // namespace sahaj::text
