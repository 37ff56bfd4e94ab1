#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <memory>

struct evp_pkey_st; // OpenSSL's EVP_PKEY, kept out of this header

namespace sahaj::security {

// An OpenSSL private key of one algorithm, and how Sahaj keeps such a key: unencrypted PKCS#8 PEM in a
// file of its own, readable by its owner only. The peer's Ed25519 identity and its X25519 CURVE key are
// both kept this way; a Kind says which key is meant, so that every message names the right key and file.
class PrivateKey {
public:
    // What a key is for, in the words its messages use.
    struct Kind {
        const char* algorithm; // OpenSSL's key type name: "ED25519", "X25519"
        const char* label;     // the algorithm as people write it: "Ed25519"
        const char* purpose;   // completes "a ... is an Ed25519 key": "Sahaj identity"
        const char* fileKind;  // names the key file: "identity key file"
        const char* fresh;     // completes "delete it to start with ...": "a new identity (other peers ...)"
    };

    static constexpr qint64 kMaxPemBytes = 64 * 1024; // a PEM X25519 or Ed25519 key is ~120 bytes

    // Loads `directory`/`fileName`, or creates the folder and the key when the file is absent (atomically,
    // mode 0600, never replacing: see SecretFile::createExclusive). When another process creates the file
    // first, its key is the one returned. An existing file that is unreadable, corrupt, encrypted, holds
    // another kind of key, or (POSIX) is accessible to group or others throws std::runtime_error naming
    // the file, and is left exactly as it was: losing a key silently would make the peer a stranger.
    // Throws std::invalid_argument for an empty folder name.
    static PrivateKey loadOrCreate(const QString& directory, const char* fileName, const Kind& kind);
    // A fresh key held in memory only.
    static PrivateKey generate(const Kind& kind);
    // Parses a PEM private key; `origin` names the source in error messages.
    static PrivateKey fromPem(QByteArrayView pem, const QString& origin, const Kind& kind);

    // The unencrypted PKCS#8 PEM form. The caller wipes it once written.
    QByteArray toPem() const;
    // The raw public key (32 bytes for Ed25519 and X25519).
    QByteArray rawPublicKey() const;
    // The raw private key. A fresh copy on each call: hand it on and let it go.
    QByteArray rawPrivateKey() const;

    // The key, for the EVP calls of the class that owns it (signing); never null.
    evp_pkey_st* evp() const { return key_.get(); }

private:
    struct KeyFree {
        void operator()(evp_pkey_st* key) const;
    };
    using Key = std::unique_ptr<evp_pkey_st, KeyFree>;

    // Takes `key`; throws std::runtime_error, naming `origin`, when it is not of `kind`'s algorithm.
    PrivateKey(Key key, const QString& origin, const Kind& kind);

    Key key_;
    QString label_; // Kind::label, for the messages of later calls
};

} // namespace sahaj::security
