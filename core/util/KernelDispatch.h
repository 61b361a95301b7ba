#pragma once
// How a kernel family is compiled once per instruction-set level and chosen at run time
// (util/CpuLevel.h says which level runs).
//
// A family is a table of function pointers (its `Table` type). Its kernel source defines, for
// the level being compiled, the entry that returns the table:
//
//     namespace ade::kernels::attention {
//     const Table* ADE_KERNEL_LEVEL() { static const Table t{&loss}; return &t; }
//     }
//
// CMake compiles that source once per level with -DADE_KERNEL_LEVEL=<identifier> and that
// level's -march; for every level but the baseline it links the objects into one relocatable
// object and makes every symbol local except those of namespace ade::kernels (the entries), so
// the Eigen and standard-library code instantiated there for AVX2 or AVX-512 can never stand in
// for the baseline's copy of the same function elsewhere in the program (core/CMakeLists.txt).
// The implementation therefore lives in an anonymous namespace, and only the entry in
// ade::kernels::<family>. The family's baseline code chooses with ADE_KERNEL_CHOOSER:
//
//     namespace ade::kernels::attention {
//     using Table = AttentionKernels;
//     ADE_KERNEL_CHOOSER  // declares every level's entry and defines running()
//     }
//     ... kernels::attention::running().loss(...)
//
// Every level must agree on the layout of what crosses between them: Eigen's alignment is fixed
// for the whole program (EIGEN_MAX_ALIGN_BYTES 64 for the heap, EIGEN_MAX_STATIC_ALIGN_BYTES 16
// for fixed-size members, set on ade_core), checked here.
#include <Eigen/Core>

#include "KernelLevels.h"
#include "util/CpuLevel.h"

static_assert(EIGEN_DEFAULT_ALIGN_BYTES == 64 && EIGEN_MAX_STATIC_ALIGN_BYTES == 16,
              "every kernel level must share Eigen's alignment (core/CMakeLists.txt)");

#define ADE_KERNEL_DECLARE_(id, name) const Table* id();
#define ADE_KERNEL_ADDRESS_(id, name) &id,
#define ADE_KERNEL_CHOOSER                                   \
    ADE_FOR_EACH_KERNEL_LEVEL(ADE_KERNEL_DECLARE_)           \
    inline const Table& running() {                          \
        static const Table* (*const entries[])() = {         \
            ADE_FOR_EACH_KERNEL_LEVEL(ADE_KERNEL_ADDRESS_)}; \
        return *entries[::ade::cpu::levelIndex()]();         \
    }
