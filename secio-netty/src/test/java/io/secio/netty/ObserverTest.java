package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.SecioObserver;
import io.secio.SecioSession;
import io.secio.protocol.SecioException.Reason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** What a {@link SecioObserver} is told: each handshake's outcome, each frame sealed and opened. */
class ObserverTest {
  /** Writes down everything it is told. */
  static final class Notes implements SecioObserver {
    final List<SecioSession> succeeded = new CopyOnWriteArrayList<>();
    final List<Reason> failed = new CopyOnWriteArrayList<>();
    final List<Duration> durations = new CopyOnWriteArrayList<>();
    final List<Integer> sealed = new CopyOnWriteArrayList<>();
    final List<Integer> opened = new CopyOnWriteArrayList<>();

    @Override
    public void handshakeSucceeded(SecioSession session, Duration duration) {
      succeeded.add(session);
      durations.add(duration);
    }

    @Override
    public void handshakeFailed(Reason reason, Duration duration) {
      failed.add(reason);
      durations.add(duration);
    }

    @Override
    public void frameSealed(int plaintextBytes) {
      sealed.add(plaintextBytes);
    }

    @Override
    public void frameOpened(int plaintextBytes) {
      opened.add(plaintextBytes);
    }
  }

  private final Notes clientNotes = new Notes();
  private final Notes serverNotes = new Notes();
  private final Recorder clientApp = new Recorder();
  private final Recorder serverApp = new Recorder();

  private EmbeddedPair pair(SecioConfig client, SecioConfig server) {
    return new EmbeddedPair(new ChannelHandler[] {Secio.client(client), clientApp},
        new ChannelHandler[] {Secio.server(server), serverApp});
  }

  @Test
  void eachHandshakeAndEachFrameIsTold() {
    SecioConfig server = TestConfigs.server().observer(serverNotes).build();
    EmbeddedPair p = pair(TestConfigs.client().observer(clientNotes).build(), server);
    p.pump();
    SecioSession session = Secio.session(p.client).orElseThrow();
    assertEquals(List.of(session), clientNotes.succeeded);
    assertEquals(List.of(Secio.session(p.server).orElseThrow()), serverNotes.succeeded);
    assertTrue(clientNotes.durations.get(0).compareTo(Duration.ZERO) > 0);
    assertEquals(List.of(), clientNotes.failed);
    // The nonce echoes are handshake frames: nothing sealed or opened by a codec yet.
    assertEquals(List.of(), clientNotes.sealed);

    p.client.writeAndFlush(Unpooled.wrappedBuffer(new byte[1000]));
    p.client.writeAndFlush(Unpooled.wrappedBuffer(new byte[7]));
    p.pump();
    assertEquals(List.of(1000, 7), clientNotes.sealed);
    assertEquals(List.of(1000, 7), serverNotes.opened);
    assertEquals(List.of(), serverNotes.sealed);
    p.close();
  }

  @Test
  void aFailedHandshakeIsToldWithItsReason() {
    SecioConfig client = TestConfigs.client().observer(clientNotes)
        .expectedRemotePeer(TestConfigs.client().build().localPeerId()).build();
    EmbeddedPair p = pair(client, TestConfigs.server().observer(serverNotes).build());
    p.pump();
    assertEquals(List.of(Reason.PEER_ID_MISMATCH), clientNotes.failed);
    assertEquals(List.of(), clientNotes.succeeded);
    p.server.close();
    assertEquals(List.of(Reason.CLOSED), serverNotes.failed);
    p.close();
  }

  @Test
  void aRefusalForWantOfAPermitIsToldAsTooManyInNoTime() {
    HandshakeLimiter one = HandshakeLimiter.of(1, 1);
    SecioConfig server = TestConfigs.server().handshakeLimiter(one).observer(serverNotes).build();
    EmbeddedChannel first = new EmbeddedChannel(Secio.server(server), new Recorder());
    EmbeddedChannel refused = new EmbeddedChannel(Secio.server(server), new Recorder());
    assertEquals(List.of(Reason.TOO_MANY_HANDSHAKES), serverNotes.failed);
    assertEquals(List.of(Duration.ZERO), serverNotes.durations);
    first.close();
    first.releaseOutbound();
    assertFalse(first.finishAndReleaseAll());
    assertFalse(refused.finishAndReleaseAll());
  }

  @Test
  void anObserverThatThrowsBreaksNothing() {
    SecioObserver hostile = new SecioObserver() {
      @Override
      public void handshakeSucceeded(SecioSession session, Duration duration) {
        throw new IllegalStateException("observer");
      }

      @Override
      public void frameSealed(int plaintextBytes) {
        throw new IllegalStateException("observer");
      }

      @Override
      public void frameOpened(int plaintextBytes) {
        throw new IllegalStateException("observer");
      }
    };
    EmbeddedPair p = pair(TestConfigs.client().observer(hostile).build(),
        TestConfigs.server().observer(hostile).build());
    p.pump();
    assertTrue(Secio.handshakeFuture(p.client).isSuccess());
    p.client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
    p.pump();
    assertEquals(3, serverApp.received().length);
    assertEquals(List.of(), clientApp.exceptions);
    assertEquals(List.of(), serverApp.exceptions);
    p.close();
  }
}
