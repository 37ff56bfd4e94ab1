#pragma once

namespace sahaj::array {

// The element types a safetensors file may hold (its dtypes F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL), as
// plain C++: the engine reads and writes states and checkpoints without libtorch, and the model side maps
// them to c10's ScalarType (model::SafeTensors).
enum class ElementType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, Bool };

} // namespace sahaj::array
