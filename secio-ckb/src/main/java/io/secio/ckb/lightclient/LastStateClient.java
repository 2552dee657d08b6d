package io.secio.ckb.lightclient;

import io.secio.ckb.header.Byte32;
import io.secio.ckb.header.HeaderException;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A light client's tip subscription to one server, without I/O: what to send when the protocol
 * opens, what a received message means, and what to do when a timer fires. The glue sends what it is
 * given and closes the stream when told.
 *
 * <p>On open it asks {@code GetLastState{subscribe}}; every {@code SendLastState} is checked by a
 * {@link LastStateVerifier} and a tip that differs from the previous one is surfaced. A server pushes
 * only blocks it relays or mines, so the client asks again once the last answer is older than the
 * re-ask interval; a question unanswered for the timeout (the light client's 60 s) ends the session.
 *
 * <p>Not thread-safe: one caller at a time.
 */
public final class LastStateClient {
  /** The light client's {@code MESSAGE_TIMEOUT}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private final LastStateVerifier verifier;
  private final Clock clock;
  private final long reAskMillis;
  private final long timeoutMillis;
  private long askedAt = -1;
  private long answeredAt;
  private Byte32 lastHash;

  /**
   * A client.
   *
   * @param verifier checks each tip
   * @param clock the local clock
   * @param reAsk how old the last answer may get before asking again
   * @param timeout how long a question may go unanswered
   */
  public LastStateClient(LastStateVerifier verifier, Clock clock, Duration reAsk, Duration timeout) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.reAskMillis = reAsk.toMillis();
    this.timeoutMillis = timeout.toMillis();
  }

  /** The protocol opened: the {@code GetLastState{subscribe: true}} to send. */
  public byte[] open() {
    return ask();
  }

  /**
   * A message from the server.
   *
   * @param message the message's bytes (after the compress codec's flag)
   * @return the server's tip if it is new (not the one it sent last)
   * @throws LightClientMessageException if the message is malformed or not a {@code SendLastState}
   * @throws HeaderException if the tip fails a rule of {@link LastStateVerifier}
   */
  public Optional<LastState> onMessage(byte[] message) throws LightClientMessageException, HeaderException {
    LightClientMessage decoded = LightClientCodec.decode(message);
    if (!(decoded instanceof LightClientMessage.SendLastState send)) {
      throw new LightClientMessageException("a server sent a GetLastState");
    }
    BigInteger totalDifficulty = verifier.verify(send.lastHeader());
    askedAt = -1;
    answeredAt = clock.millis();
    Byte32 hash = send.lastHeader().header().hash();
    if (hash.equals(lastHash)) {
      return Optional.empty();
    }
    lastHash = hash;
    return Optional.of(new LastState(send.lastHeader(), totalDifficulty));
  }

  /**
   * The timer fired.
   *
   * @return a {@code GetLastState} to send if the last answer is older than the re-ask interval
   * @throws LightClientMessageException if a question went unanswered for the timeout: end the session
   */
  public Optional<byte[]> poll() throws LightClientMessageException {
    long now = clock.millis();
    if (askedAt >= 0) {
      if (now - askedAt > timeoutMillis) {
        throw new LightClientMessageException("no SendLastState within " + timeoutMillis + " ms");
      }
      return Optional.empty();
    }
    return now - answeredAt > reAskMillis ? Optional.of(ask()) : Optional.empty();
  }

  private byte[] ask() {
    askedAt = clock.millis();
    return LightClientCodec.encode(new LightClientMessage.GetLastState(true));
  }

  /**
   * A server's tip that passed the checks.
   *
   * @param tip the tip
   * @param totalDifficulty the total difficulty it claims (its parent chain root's plus its own)
   */
  public record LastState(VerifiableHeader tip, BigInteger totalDifficulty) {
    /**
     * A tip.
     *
     * @param tip the tip
     * @param totalDifficulty its claimed total difficulty
     */
    public LastState {
      Objects.requireNonNull(tip, "tip");
      Objects.requireNonNull(totalDifficulty, "totalDifficulty");
    }
  }
}
