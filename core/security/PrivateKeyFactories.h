#pragma once

#include "core/security/PrivateKey.h"

#include <QByteArrayView>
#include <QString>

namespace sahaj::security {

// The three ways to obtain a class that holds one private key (PeerIdentity, CurveKeyPair): from its key
// file, freshly generated, or parsed from PEM. Written once here, so that every key Sahaj keeps follows
// the same file rules. `Holder` derives from PrivateKeyFactories<Holder> and befriends it, names its file
// (kKeyFileName) and its key (kKeyKind, a PrivateKey::Kind), and is constructible from a PrivateKey.
template <typename Holder>
class PrivateKeyFactories {
public:
    // Loads `directory`/Holder::kKeyFileName, or creates the folder and the key when the file is absent.
    // A bad existing file throws std::runtime_error naming it and is left exactly as it was: see
    // PrivateKey::loadOrCreate for the rules.
    static Holder loadOrCreate(const QString& directory) {
        return Holder(PrivateKey::loadOrCreate(directory, Holder::kKeyFileName, Holder::kKeyKind));
    }

    // A fresh key held in memory only (tests, throwaway nodes).
    static Holder generate() { return Holder(PrivateKey::generate(Holder::kKeyKind)); }

    // Parses a PEM private key; `origin` names the source in error messages.
    static Holder fromPem(QByteArrayView pem, const QString& origin) {
        return Holder(PrivateKey::fromPem(pem, origin, Holder::kKeyKind));
    }
};

} // namespace sahaj::security
