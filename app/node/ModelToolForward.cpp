#include "app/node/ModelToolForward.h"

#include "core/engine/CoreLocator.h"

#include <QByteArray>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace sahaj::node {

int ModelToolForward::run(const QCommandLineParser&) {
    throw std::logic_error("sahaj-node " + name().toStdString() + " is handed over, never parsed here");
}

int ModelToolForward::forward(const QStringList& arguments) {
    std::string tools;
    try {
        tools = engine::CoreLocator::modelTools().string();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sahaj-node %s: error: %s\n", command_.name, e.what());
        return 1;
    }
    std::vector<QByteArray> bytes{QByteArray::fromStdString(tools)};
    for (const QString& argument : arguments)
        bytes.push_back(argument.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& argument : bytes)
        argv.push_back(argument.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    ::execv(tools.c_str(), argv.data());
    std::fprintf(stderr, "sahaj-node %s: error: cannot start %s: %s\n", command_.name, tools.c_str(),
                 std::strerror(errno));
    return 1;
}

} // namespace sahaj::node
