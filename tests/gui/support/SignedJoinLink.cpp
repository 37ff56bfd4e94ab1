#include "SignedJoinLink.h"

#include "core/run/JoinFile.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/SampleManifest.h"

namespace sahaj::testing {

QString signedJoinLink() {
    static const QString link = run::JoinFile::sign(test::sampleManifest(QStringLiteral("sahajbert-demo"),
                                                                         QStringLiteral("127.0.0.1:7000")),
                                                    security::PeerIdentity::generate())
                                    .toLink();
    return link;
}

} // namespace sahaj::testing
