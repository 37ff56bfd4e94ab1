#pragma once

#include <QCommandLineParser>

#include <string>

namespace sahaj::node {

// `--device cpu|cuda|cuda:N` with one check for every command that runs the model.
class DeviceOption {
public:
    static void add(QCommandLineParser& parser);
    // "cpu" when not given; UsageError for another spelling, or for CUDA when this libtorch has no CUDA
    // or no device is visible.
    static std::string value(const QCommandLineParser& parser);
};

} // namespace sahaj::node
