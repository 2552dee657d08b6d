package io.secio.ckb;

/**
 * Fails early, with the fix, when Netty's snappy is not readable: on the module path with Netty 4.2
 * it is the module {@code io.netty.codec.compression}, which {@code requires static} does not resolve
 * by itself. Stateless.
 */
final class SnappyModule {
  private SnappyModule() {}

  static void check() {
    Module self = SnappyModule.class.getModule();
    if (!self.isNamed()) {
      return;
    }
    try {
      Class<?> snappy = Class.forName("io.netty.handler.codec.compression.Snappy", false, SnappyModule.class.getClassLoader());
      if (self.canRead(snappy.getModule())) {
        return;
      }
    } catch (ClassNotFoundException e) {
      // reported below
    }
    throw new IllegalStateException("secio-ckb needs Netty's snappy: on the module path with Netty 4.2 add "
        + "--add-modules io.netty.codec.compression (and the netty-codec-compression jar)");
  }
}
