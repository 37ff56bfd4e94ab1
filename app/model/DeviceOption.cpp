#include "app/model/DeviceOption.h"

#include "app/node/UsageError.h"

#include <torch/cuda.h>

namespace sahaj::node {

void DeviceOption::add(QCommandLineParser& parser) {
    parser.addOption({"device", "cpu or cuda[:N] (default: cpu).", "DEVICE"});
}

std::string DeviceOption::value(const QCommandLineParser& parser) {
    const std::string device = parser.isSet("device") ? parser.value("device").toStdString() : "cpu";
    if (device != "cpu" && device != "cuda" && device.rfind("cuda:", 0) != 0)
        throw UsageError("--device must be cpu or cuda, got '" + device + "'");
    if (device != "cpu" && !torch::cuda::is_available())
        throw UsageError(
            "--device " + device +
            ": this libtorch has no CUDA support or no CUDA device is visible; use --device cpu");
    return device;
}

} // namespace sahaj::node
