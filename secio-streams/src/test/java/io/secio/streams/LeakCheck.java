package io.secio.streams;

import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaked a {@code ByteBuf}: registered for every test of this module (service file
 * plus extension autodetection), with Netty's leak detector at paranoid (the parent pom sets it).
 * Netty reports a leak only once the leaked buffer was collected and a later allocation looks, so
 * after each test this collects (waiting for a weakly held object to go, not for a clock), allocates
 * from each allocator, and fails on any report the listener heard.
 */
public final class LeakCheck implements AfterEachCallback {
  private static final List<String> REPORTS = new ArrayList<>();
  /**
   * Collections forced after each test. The mutation profile sets 1: PIT runs every covering test of
   * a surviving mutant, and three full collections a test were most of its time; one still finds
   * most leaks a mutant makes (the normal build checks every test with three).
   */
  private static final int COLLECTIONS = Integer.getInteger("secio.leakCheck.collections", 3);

  static {
    ByteBufUtil.setLeakListener((type, records) -> {
      synchronized (REPORTS) {
        REPORTS.add(type + records);
      }
    });
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    for (int pass = 0; pass < COLLECTIONS; pass++) {
      ReferenceQueue<Object> gone = new ReferenceQueue<>();
      WeakReference<Object> probe = new WeakReference<>(new Object(), gone);
      System.gc();
      if (gone.remove(60_000) == null) {
        fail("no garbage collection within a minute: leaks cannot be checked");
      }
      probe.clear();
      for (ByteBufAllocator alloc : List.of(ByteBufAllocator.DEFAULT, PooledByteBufAllocator.DEFAULT,
          UnpooledByteBufAllocator.DEFAULT)) {
        alloc.heapBuffer(1).release();
        alloc.directBuffer(1).release();
      }
    }
    List<String> leaks;
    synchronized (REPORTS) {
      leaks = new ArrayList<>(REPORTS);
      REPORTS.clear();
    }
    if (!leaks.isEmpty()) {
      fail(leaks.size() + " ByteBuf leak(s):\n" + String.join("\n----\n", leaks));
    }
  }
}
