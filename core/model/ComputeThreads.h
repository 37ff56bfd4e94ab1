#pragma once

namespace sahaj::model {

// How many CPU threads the model's kernels use: ATen's pool and the BLAS library's own. Debian's libtorch
// multiplies matrices in OpenBLAS, whose pthreads pool ignores ATen's setting and spins in sched_yield
// while it waits: with --threads 1 a core still ran two busy threads, half their time in the kernel, and
// took that time from the other processes of the machine (the volunteer's own limit not kept).
void setComputeThreads(int threads);

} // namespace sahaj::model
