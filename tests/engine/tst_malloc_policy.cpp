// The engine's malloc policy: after a large block was freed, the next large block still gets pages of its
// own (given back when freed) instead of coming from the heap, where glibc's default would put it.
#include "core/engine/MallocPolicy.h"

#include <QtTest>

#include <cstdlib>
#include <cstring>
#include <malloc.h>

using sahaj::engine::MallocPolicy;

class TestMallocPolicy : public QObject {
    Q_OBJECT

    // Blocks with pages of their own, now.
    static std::size_t mappedBlocks() { return ::mallinfo2().hblks; }

    // Touched, so that the block is real and no allocation is elided.
    static void* allocate(std::size_t bytes) {
        void* block = std::malloc(bytes);
        if (block)
            std::memset(block, 1, bytes);
        return block;
    }

private Q_SLOTS:
    void aLargeBlockGetsPagesOfItsOwnAfterALargerOneWasFreed() {
        QVERIFY(MallocPolicy::apply());
        // glibc's default: freeing this 8 MiB block (mapped: above the initial 128 KiB threshold) raises the
        // threshold to 8 MiB, and a 1 MiB block would then come from the heap.
        void* large = allocate(8u << 20);
        QVERIFY(large);
        std::free(large);
        const std::size_t before = mappedBlocks();
        void* block = allocate(1u << 20);
        QVERIFY(block);
        const std::size_t during = mappedBlocks();
        std::free(block);
        QCOMPARE(during, before + 1);
        QCOMPARE(mappedBlocks(), before); // given back
    }
};

QTEST_GUILESS_MAIN(TestMallocPolicy)
#include "tst_malloc_policy.moc"
