#pragma once

// Views of OpenDHT's byte containers as Qt byte views. Internal to core/dht (.cpp files only): it pulls
// in OpenDHT's headers.

#include <QByteArrayView>

#include <opendht/infohash.h>
#include <opendht/value.h>

namespace sahaj::dht {

inline QByteArrayView bytesOf(const ::dht::InfoHash& hash) {
    return QByteArrayView(reinterpret_cast<const char*>(hash.data()), static_cast<qsizetype>(hash.size()));
}

inline QByteArrayView bytesOf(const ::dht::Blob& blob) {
    return QByteArrayView(reinterpret_cast<const char*>(blob.data()), static_cast<qsizetype>(blob.size()));
}

} // namespace sahaj::dht
