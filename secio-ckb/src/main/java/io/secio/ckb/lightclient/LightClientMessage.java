package io.secio.ckb.lightclient;

import java.util.Objects;

/**
 * The items of the {@code LightClientMessage} union ({@code /ckb/lightclient}, RFC 0044) that a
 * client sends and checks first: {@code GetLastState} (id 0) and {@code SendLastState} (id 1).
 * {@link LightClientCodec} reads and writes them.
 */
public sealed interface LightClientMessage {
  /**
   * {@code GetLastState}: asks a server for its tip; with {@code subscribe} it also pushes a new
   * tip whenever it relays or mines a block.
   *
   * @param subscribe whether to keep sending new tips
   */
  record GetLastState(boolean subscribe) implements LightClientMessage {}

  /**
   * {@code SendLastState}: a server's tip.
   *
   * @param lastHeader the tip, verifiable
   */
  record SendLastState(VerifiableHeader lastHeader) implements LightClientMessage {
    /**
     * The message.
     *
     * @param lastHeader the tip
     */
    public SendLastState {
      Objects.requireNonNull(lastHeader, "lastHeader");
    }
  }
}
