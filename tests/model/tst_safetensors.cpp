// SafeTensors: files written by the spec by hand, round trips, and a clear error for every kind of bad file.
#include "core/model/SafeTensors.h"

#include <torch/torch.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <iterator>

using sahaj::model::SafeTensors;

namespace {

std::string littleEndian64(std::uint64_t value) {
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i)
        bytes[static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xff);
    return bytes;
}

// A file as the spec lays it out: length, header, data.
std::string fileBytes(const std::string& header, const std::string& data) {
    return littleEndian64(header.size()) + header + data;
}

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <typename T>
std::string rawBytes(std::initializer_list<T> values) {
    std::string bytes(values.size() * sizeof(T), '\0');
    std::memcpy(bytes.data(), std::data(values), bytes.size());
    return bytes;
}

} // namespace

class TestSafeTensors : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::filesystem::path path(const char* name) const { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void handBuiltFileFromTheSpec() {
        // Two tensors, metadata, and a header that is not padded: every reader must accept it.
        const std::string header = R"({"__metadata__":{"format":"pt","note":"hand made"},)"
                                   R"("ints":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]},)"
                                   R"("halves":{"dtype":"F16","shape":[2],"data_offsets":[16,20]},)"
                                   R"("brains":{"dtype":"BF16","shape":[1],"data_offsets":[20,22]},)"
                                   R"("empty":{"dtype":"F32","shape":[0,3],"data_offsets":[22,22]},)"
                                   R"("scalar":{"dtype":"F64","shape":[],"data_offsets":[22,30]}})";
        // fp16 1.0 = 0x3C00, -2.0 = 0xC000; bf16 1.0 = 0x3F80.
        const std::string data = rawBytes<std::int32_t>({1, 2, 3, 4}) +
                                 rawBytes<std::uint16_t>({0x3C00, 0xC000}) +
                                 rawBytes<std::uint16_t>({0x3F80}) + rawBytes<double>({2.5});
        writeBytes(path("spec.safetensors"), fileBytes(header, data));

        const auto content = SafeTensors::read(path("spec.safetensors"));
        QCOMPARE(content.tensors.size(), std::size_t{5});
        QCOMPARE(content.metadata.at("format"), std::string("pt"));
        QCOMPARE(content.metadata.at("note"), std::string("hand made"));
        const at::Tensor ints = content.tensors.at("ints");
        QCOMPARE(ints.scalar_type(), torch::kInt);
        QVERIFY(torch::equal(ints, torch::tensor({1, 2, 3, 4}, torch::kInt).reshape({2, 2})));
        QVERIFY(torch::equal(content.tensors.at("halves"), torch::tensor({1.0, -2.0}).to(torch::kHalf)));
        QCOMPARE(content.tensors.at("brains").scalar_type(), torch::kBFloat16);
        QCOMPARE(content.tensors.at("brains").item<float>(), 1.0f);
        QVERIFY(content.tensors.at("empty").sizes().vec() == (std::vector<std::int64_t>{0, 3}));
        QCOMPARE(content.tensors.at("scalar").dim(), std::int64_t{0});
        QCOMPARE(content.tensors.at("scalar").item<double>(), 2.5);
    }

    void everyDtypeRoundTrips() {
        SafeTensors::Tensors tensors;
        torch::manual_seed(0);
        tensors["f64"] = torch::randn({3, 2}, torch::kDouble);
        tensors["f32"] = torch::randn({2, 3, 4});
        tensors["f16"] = torch::randn({5}).to(torch::kHalf);
        tensors["bf16"] = torch::randn({5}).to(torch::kBFloat16);
        tensors["i64"] = torch::tensor({std::int64_t{-1}, std::int64_t{1} << 40}, torch::kLong);
        tensors["i32"] = torch::tensor({-7, 7}, torch::kInt);
        tensors["i16"] = torch::tensor({-300, 300}, torch::kShort);
        tensors["i8"] = torch::tensor({-100, 100}, torch::kChar);
        tensors["u8"] = torch::tensor({0, 255}, torch::kByte);
        tensors["bool"] = torch::tensor({true, false, true});
        tensors["scalar"] = torch::tensor(3.25);
        tensors["empty"] = torch::empty({0});
        tensors["transposed"] = torch::arange(6, torch::kFloat).reshape({2, 3}).t(); // not contiguous
        SafeTensors::write(path("all.safetensors"), tensors, {{"step", "12"}});

        const auto content = SafeTensors::read(path("all.safetensors"));
        QCOMPARE(content.metadata, (SafeTensors::Metadata{{"step", "12"}}));
        QCOMPARE(content.tensors.size(), tensors.size());
        for (const auto& [name, tensor] : tensors) {
            const at::Tensor& read = content.tensors.at(name);
            QCOMPARE(read.scalar_type(), tensor.scalar_type());
            QVERIFY2(read.sizes().equals(tensor.sizes()), name.c_str());
            QVERIFY2(torch::equal(read, tensor), name.c_str());
        }
    }

    void bytesRoundTripAndLayout() {
        SafeTensors::Tensors tensors{{"b.weight", torch::randn({3, 3})},
                                     {"a.bias", torch::randn({3})},
                                     {"c", torch::ones({1}, torch::kHalf)}};
        SafeTensors::write(path("first.safetensors"), tensors, {{"format", "pt"}});
        const auto content = SafeTensors::read(path("first.safetensors"));
        SafeTensors::write(path("second.safetensors"), content.tensors, content.metadata);
        const std::string first = readBytes(path("first.safetensors"));
        QCOMPARE(readBytes(path("second.safetensors")), first);

        // Header padded with spaces to a multiple of 8, data packed in name order right after it.
        std::uint64_t headerSize = 0;
        for (int i = 7; i >= 0; --i)
            headerSize = (headerSize << 8) | static_cast<unsigned char>(first[static_cast<std::size_t>(i)]);
        QCOMPARE(headerSize % 8, std::uint64_t{0});
        const std::string header = first.substr(8, headerSize);
        QVERIFY(header.starts_with(R"({"__metadata__":{"format":"pt"},"a.bias":)"));
        QVERIFY(header.find("\"b.weight\"") < header.find("\"c\""));
        QCOMPARE(first.size(), 8 + headerSize + (3 + 9) * 4 + 2);
        // The bytes of a.bias come first in the data buffer.
        QCOMPARE(std::memcmp(first.data() + 8 + headerSize, tensors["a.bias"].data_ptr(), 12), 0);
        // The atomic writer left no temporary files behind.
        QCOMPARE(QDir(dir_.path()).entryList({".*tmp*"}, QDir::Files | QDir::Hidden), QStringList{});
    }

    void badFilesAreRejected_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, const std::string& bytes, const char* message) {
            QTest::newRow(name) << QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()))
                                << QString(message);
        };
        const std::string f32x2 = rawBytes<float>({1.0f, 2.0f});
        const std::string good = R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
        row("empty file", "", "truncated: 0 bytes");
        row("short file", std::string("\x05\x00\x00", 3), "truncated: 3 bytes");
        row("header past the end", littleEndian64(1000) + "{}",
            "header length 1000 is larger than the rest of the file");
        row("absurd header length", littleEndian64(200'000'000) + "{}",
            "exceeds the limit of 100000000 bytes");
        row("not JSON", fileBytes("{\"t\": [", ""), "the header is not valid JSON");
        row("not an object", fileBytes("[1,2]", ""), "the header must be a JSON object");
        row("unknown dtype", fileBytes(R"({"t":{"dtype":"F8","shape":[2],"data_offsets":[0,2]}})", "ab"),
            "unknown dtype 'F8'");
        row("missing dtype", fileBytes(R"({"t":{"shape":[2],"data_offsets":[0,8]}})", f32x2), "\"dtype\"");
        row("size mismatch", fileBytes(R"({"t":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", f32x2),
            "needs 12 bytes but data_offsets [0,8] span 8");
        row("negative dim", fileBytes(R"({"t":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", f32x2),
            "negative dimension");
        row("real dim", fileBytes(R"({"t":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}})", f32x2),
            "shape must hold integers");
        row("three offsets", fileBytes(R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,4,8]}})", f32x2),
            "data_offsets must have two entries");
        row("reversed offsets", fileBytes(R"({"t":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})", f32x2),
            "end before they begin");
        row("overlap",
            fileBytes(
                R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                f32x2 + f32x2.substr(0, 4)),
            "tensor 'b' data_offsets [4, 12] overlap tensor 'a'");
        row("hole",
            fileBytes(
                R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                f32x2 + f32x2.substr(0, 4)),
            "leave a hole of 4 bytes");
        row("past the data", fileBytes(R"({"t":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", f32x2),
            "run past the data buffer of 8 bytes");
        row("trailing bytes", fileBytes(good, f32x2 + "xyz"), "3 bytes follow the last tensor's data");
        row("duplicate name",
            fileBytes(
                R"({"t":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"t":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                f32x2),
            "the header names 't' more than once");
        row("duplicate field",
            fileBytes(R"({"t":{"dtype":"F32","dtype":"F16","shape":[2],"data_offsets":[0,8]}})", f32x2),
            "names 'dtype' more than once");
        row("metadata not strings",
            fileBytes(R"({"__metadata__":{"step":3},"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
                      f32x2),
            "\"__metadata__\" value of 'step' must be a string");
        row("entry not an object", fileBytes(R"({"t":[1,2]})", ""), "tensor 't': entry must be an object");
    }
    void badFilesAreRejected() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const auto file = path("bad.safetensors");
        writeBytes(file, bytes.toStdString());
        try {
            SafeTensors::read(file);
            QFAIL("the bad file was accepted");
        } catch (const std::runtime_error& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains(message), e.what());
            QVERIFY2(what.contains("bad.safetensors"), e.what()); // the error names the file
        }
        // Bytes received over the network get the same checks.
        try {
            SafeTensors::decode(bytes.toStdString(), "from peer X");
            QFAIL("the bad bytes were accepted");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains("from peer X"), e.what());
        }
    }

    void memoryImageEqualsTheFile() {
        torch::manual_seed(3);
        const SafeTensors::Tensors tensors{{"b", torch::randn({3, 5})},
                                           {"a", torch::randint(0, 100, {7}, torch::kLong)},
                                           {"h", torch::randn({2, 2}).to(torch::kHalf)}};
        const SafeTensors::Metadata metadata{{"epoch", "12"}};
        const auto file = path("image.safetensors");
        SafeTensors::write(file, tensors, metadata);
        std::ifstream in(file, std::ios::binary);
        const std::string onDisk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string encoded = SafeTensors::encode(tensors, metadata);
        QVERIFY(encoded == onDisk);
        const SafeTensors::Content content = SafeTensors::decode(encoded, "memory");
        QCOMPARE(content.metadata.at("epoch"), std::string("12"));
        for (const auto& [name, tensor] : tensors)
            QVERIFY(torch::equal(content.tensors.at(name), tensor));
        // A cut image is refused, naming where the data came from.
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, SafeTensors::decode(encoded.substr(0, encoded.size() - 1), "cut"));
    }

    void missingFileIsAClearError() {
        try {
            SafeTensors::read(path("does-not-exist.safetensors"));
            QFAIL("a missing file was read");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("does-not-exist.safetensors") &&
                         QString(e.what()).contains("cannot read"),
                     e.what());
        }
    }

    void writerRejectsWhatTheFormatCannotHold() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 SafeTensors::write(path("x.safetensors"), {{"undefined", at::Tensor()}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 SafeTensors::write(path("x.safetensors"),
                                                    {{"complex", torch::zeros({2}, torch::kComplexFloat)}}));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            SafeTensors::write(path("x.safetensors"), {{"__metadata__", torch::zeros({2})}}));
        QVERIFY(!std::filesystem::exists(path("x.safetensors")));
        // Writing into a directory that does not exist fails with the path in the message.
        try {
            SafeTensors::write(path("no/such/dir.safetensors"), {{"t", torch::zeros({2})}});
            QFAIL("wrote into a missing directory");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("dir.safetensors"), e.what());
        }
    }

    void overwriteReplacesTheFile() {
        SafeTensors::write(path("over.safetensors"), {{"t", torch::zeros({100})}});
        SafeTensors::write(path("over.safetensors"), {{"u", torch::ones({2})}});
        const auto content = SafeTensors::read(path("over.safetensors"));
        QCOMPARE(content.tensors.size(), std::size_t{1});
        QVERIFY(torch::equal(content.tensors.at("u"), torch::ones({2})));
    }
};

QTEST_APPLESS_MAIN(TestSafeTensors)
#include "tst_safetensors.moc"
