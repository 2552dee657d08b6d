package io.secio.tentacle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The recorded tentacle 0.7.7 sessions replayed in both roles ({@code docs/STREAMS.md} §8.5): the
 * plaintext session, and the yamux frames each side of the secio session encoded. Our listener fed
 * the recorded dialer's bytes writes, stream by stream, exactly the frames the recorded listener
 * wrote (ACK, protocol-select reply, messages cut at the same window edges, window updates, FIN);
 * our dialer, given the same protocols, versions and messages and fed the recorded listener's bytes,
 * writes exactly the recorded dialer's. Only the keepalive pings each side sends on its own clock
 * are left out, and the recorded dialer's repeated GoAways (see the recordings' README).
 */
class SessionReplayTest {
  /**
   * Frames per stream (0: the session's Ping ACK and GoAway), own pings left out, GoAways once; a
   * stream's credit updates (WindowUpdate, flags 0) in a list of their own (key: -id), since where
   * they fall among the stream's Data frames depends on when the peer's bytes arrived.
   */
  private static Map<Long, List<String>> byStream(byte[] bytes) {
    Map<Long, List<String>> streams = new LinkedHashMap<>();
    boolean goAway = false;
    for (Recorded.Frame f : Recorded.frames(bytes)) {
      if (f.isPingSyn() || (f.type() == 3 && goAway)) {
        continue;
      }
      goAway |= f.type() == 3;
      long key = f.type() == 1 && f.flags() == 0 ? -f.stream() : f.stream();
      streams.computeIfAbsent(key, s -> new ArrayList<>()).add(f.describe());
    }
    return streams;
  }

  /** Where each frame of {@code bytes} starts. */
  private static List<Integer> starts(byte[] bytes) {
    List<Integer> starts = new ArrayList<>();
    int at = 0;
    for (Recorded.Frame f : Recorded.frames(bytes)) {
      starts.add(at);
      at += Recorded.HEADER + f.body().length;
    }
    return starts;
  }

  @ParameterizedTest
  @ValueSource(strings = {"insecure-session.json", "secio-session.json"})
  void ourListenerWritesWhatTentaclesWrote(String recording) {
    EmbeddedChannel listener = new EmbeddedChannel(Tentacle.insecureServer(TestProtocols.listener()));
    List<byte[]> dialer = Recorded.chunks(recording, "a2b");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] chunk : dialer) {
      if (!listener.isOpen()) {
        break; // the recorded dialer's last GoAways, written after the listener had closed
      }
      listener.writeInbound(Unpooled.wrappedBuffer(chunk));
      listener.runPendingTasks();
      out.writeBytes(Recorded.written(listener));
    }
    Map<Long, List<String>> expected = byStream(Recorded.concat(Recorded.chunks(recording, "b2a")));
    Map<Long, List<String>> actual = byStream(out.toByteArray());
    assertEquals(expected.keySet(), actual.keySet());
    for (long stream : expected.keySet()) {
      assertEquals(expected.get(stream), actual.get(stream), "stream " + stream);
    }
    assertFalse(listener.isOpen(), "GoAway 0 answered and the connection closed");
    assertFalse(listener.finishAndReleaseAll());
  }

  @ParameterizedTest
  @ValueSource(strings = {"insecure-session.json", "secio-session.json"})
  void ourDialerWritesWhatTentaclesWrote(String recording) throws Exception {
    TestProtocols.Collect echoed = new TestProtocols.Collect();
    TestProtocols.Collect chatter = new TestProtocols.Collect();
    TentacleConfig config = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(TestProtocols.ECHO, List.of("1", "2"), echoed))
        .protocol(TentacleProtocol.of(TestProtocols.CHATTER, List.of("1"), chatter))
        .build();
    EmbeddedChannel dialer = new EmbeddedChannel(Tentacle.insecureClient(config));
    TentacleSession session = Tentacle.sessionFuture(dialer).getNow();
    var echo = session.openStream(TestProtocols.ECHO, List.of("2", "1"), echoed);
    var chat = session.openStream(TestProtocols.CHATTER, chatter);
    dialer.runPendingTasks();

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] opening = Recorded.written(dialer);
    byte[] recordedOpening = Recorded.concat(Recorded.frames(Recorded.concat(Recorded.chunks(recording, "a2b")))
        .stream().limit(4).map(f -> frameBytes(f)).collect(Collectors.toList()));
    assertArrayEquals(recordedOpening, opening, "SYN 1 + echo offer, SYN 3 + chatter offer");
    out.writeBytes(opening);

    // The recorded listener's bytes, in its chunks, cut where its first FIN (its answer to the
    // dialer's close of echo) and its GoAway begin: there the recorded dialer had closed.
    List<byte[]> chunks = Recorded.chunks(recording, "b2a");
    byte[] all = Recorded.concat(chunks);
    List<Recorded.Frame> frames = Recorded.frames(all);
    List<Integer> starts = starts(all);
    int fin = -1;
    int goAway = -1;
    for (int i = 0; i < frames.size(); i++) {
      if (fin < 0 && (frames.get(i).flags() & 4) != 0) {
        fin = starts.get(i);
      }
      if (goAway < 0 && frames.get(i).type() == 3) {
        goAway = starts.get(i);
      }
    }
    assertTrue(fin > 0 && goAway > fin);
    boolean messagesSent = false;
    int at = 0;
    for (byte[] chunk : chunks) {
      int from = at;
      at += chunk.length;
      for (int cut : new int[] {fin, goAway}) {
        if (cut > from && cut < at) {
          feed(dialer, Arrays.copyOfRange(chunk, 0, cut - from), out);
          chunk = Arrays.copyOfRange(chunk, cut - from, chunk.length);
          from = cut;
        }
        if (cut == from) {
          if (cut == fin) {
            // The recorded dialer closed echo, then chatter (FIN each, answered by FIN).
            echo.getNow().close();
            chat.getNow().close();
          } else {
            session.close(); // GoAway 0, answered by GoAway 0
          }
          dialer.runPendingTasks();
          out.writeBytes(Recorded.written(dialer));
        }
      }
      feed(dialer, chunk, out);
      if (!messagesSent && echo.isDone()) {
        assertTrue(echo.isSuccess(), () -> "echo opened: " + echo.cause());
        assertEquals("1", Tentacle.protocol(echo.getNow()).orElseThrow().version().orElseThrow(),
            "offer [2,1] against [1,2]: tentacle chose 1");
        for (int i = 0; i < TestProtocols.ECHO_SIZES.size(); i++) {
          echo.getNow().write(Unpooled.wrappedBuffer(Recorded.echoMessage(i, TestProtocols.ECHO_SIZES.get(i))));
        }
        echo.getNow().flush();
        messagesSent = true;
        dialer.runPendingTasks();
        out.writeBytes(Recorded.written(dialer));
      }
    }
    Map<Long, List<String>> expected = byStream(Recorded.concat(Recorded.chunks(recording, "a2b")));
    Map<Long, List<String>> actual = byStream(out.toByteArray());
    assertEquals(expected.keySet(), actual.keySet());
    for (long stream : expected.keySet()) {
      assertEquals(expected.get(stream), actual.get(stream), "stream " + stream);
    }
    for (int i = 0; i < TestProtocols.ECHO_SIZES.size(); i++) {
      assertArrayEquals(Recorded.echoMessage(i, TestProtocols.ECHO_SIZES.get(i)), echoed.messages.poll(), "echo " + i);
    }
    for (int k = 0; k < TestProtocols.CHATTER_SIZES.size(); k++) {
      assertArrayEquals(Recorded.chatterMessage(k, TestProtocols.CHATTER_SIZES.get(k)), chatter.messages.poll(), "chatter " + k);
    }
    assertEquals("1", Tentacle.protocol(chat.getNow()).orElseThrow().version().orElseThrow());
    assertFalse(dialer.isOpen());
    assertFalse(dialer.finishAndReleaseAll());
  }

  private static void feed(EmbeddedChannel channel, byte[] bytes, ByteArrayOutputStream out) {
    if (bytes.length > 0 && channel.isOpen()) {
      channel.writeInbound(Unpooled.wrappedBuffer(bytes));
      channel.runPendingTasks();
    }
    out.writeBytes(Recorded.written(channel));
  }

  private static byte[] frameBytes(Recorded.Frame f) {
    ByteBuffer b = ByteBuffer.allocate(Recorded.HEADER + f.body().length);
    b.put((byte) 0).put((byte) f.type()).putShort((short) f.flags()).putInt((int) f.stream())
        .putInt((int) f.length()).put(f.body());
    return b.array();
  }
}
