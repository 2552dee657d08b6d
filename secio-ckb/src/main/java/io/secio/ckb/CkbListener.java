package io.secio.ckb;

/**
 * Hears every session's {@link CkbEvent}s ({@link CkbConfig.Builder#listener}). Called on the
 * session's event loop: it must not block. An exception it throws is logged and otherwise ignored.
 */
@FunctionalInterface
public interface CkbListener {
  /**
   * An event on {@code session}.
   *
   * @param session the session
   * @param event what happened
   */
  void onEvent(CkbSession session, CkbEvent event);
}
