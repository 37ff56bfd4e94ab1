#pragma once

#include <cstddef>
#include <optional>

namespace sahaj::optim {

// How one parameter starts (the model's initialisation scheme, e.g. Hugging Face's for ALBERT): values
// drawn from N(0, std), or a constant; optionally one row set to 0 (an embedding's padding row).
struct InitialValueRule {
    enum class Kind { Normal, Constant };
    Kind kind = Kind::Constant;
    double std = 0.0;      // Normal
    double constant = 0.0; // Constant
    std::optional<std::size_t> zeroRow;
    std::size_t rowLength = 0; // values per row, with zeroRow

    friend bool operator==(const InitialValueRule&, const InitialValueRule&) = default;
};

} // namespace sahaj::optim
