package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.streams.CollectedStream;
import io.secio.streams.StreamChannel;
import io.secio.streams.StreamChannelBootstrap;
import io.secio.streams.StreamResetException;
import io.secio.testsupport.Collect;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our dialer survives every answer a real tentacle listener gave in {@code probes.json}: it opens
 * the streams the probe opened, reads tentacle's bytes exactly as they came (chunk by chunk, then
 * tentacle's close where it closed), and ends each time in a typed state: still open, or closed with
 * every stream ended in order or with a typed error; never another exception, never a leak.
 */
class TentacleProbesTest {

  static Stream<String> probes() {
    List<String> names = new ArrayList<>();
    for (JsonElement e : Recordings.json("probes.json").getAsJsonArray("probes")) {
      names.add(e.getAsJsonObject().get("probe").getAsString());
    }
    return names.stream();
  }

  /** What our dialer made of one probe's answers. */
  private static final class Run implements AutoCloseable {
    final List<CollectedStream> opened = new ArrayList<>();
    final EmbeddedChannel client = new EmbeddedChannel(YamuxHandler.client(YamuxConfig.tentacle(), null));
    final List<Throwable> sessionErrors = new ArrayList<>();
    final List<Wire.Frame> written = new ArrayList<>();

    Run(JsonObject probe) {
      for (String chunk : Recordings.chunks(probe, "a2b")) {
        // The probe's SYNs each begin a chunk: our dialer opens the same odd streams, in order.
        int type = Integer.parseInt(chunk.substring(2, 4), 16);
        int flags = Integer.parseInt(chunk.substring(4, 8), 16);
        long id = Long.parseLong(chunk.substring(8, 16), 16);
        if ((flags & YamuxFrames.FLAG_SYN) != 0 && type <= YamuxFrames.TYPE_WINDOW_UPDATE && (id & 1) == 1
            && opened.stream().noneMatch(c -> c.stream().streamId() == id)) {
          Collect c = Collect.observing();
          Future<StreamChannel> open = new StreamChannelBootstrap(client).handler(c).open();
          client.runPendingTasks();
          opened.add(new CollectedStream(open.getNow(), c));
        }
      }
      for (String chunk : Recordings.chunks(probe, "b2a")) {
        feed(chunk);
      }
      boolean closed = !probe.get("peer_closed_tcp_at_ms").isJsonNull();
      if (closed && client.isOpen()) {
        client.pipeline().fireChannelInactive();
        client.runPendingTasks();
      }
      written.addAll(Wire.frames(client));
    }

    private void feed(String hex) {
      if (!client.isOpen()) {
        return;
      }
      try {
        client.writeInbound(Unpooled.wrappedBuffer(Wire.HEX.parseHex(hex)));
      } catch (Exception e) { // EmbeddedChannel rethrows what reached the connection's pipeline tail
        sessionErrors.add(assertInstanceOf(YamuxException.class, e, "only a typed error"));
      }
    }

    @Override
    public void close() {
      client.finishAndReleaseAll();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("probes")
  void ourDialerSurvivesTentaclesAnswer(String name) {
    try (Run run = new Run(Recordings.probe(name))) {
      for (CollectedStream c : run.opened) {
        List<Throwable> exceptions = c.collect().exceptions();
        if (!c.stream().isOpen()) {
          assertTrue(exceptions.isEmpty() || exceptions.get(0) instanceof YamuxException
              || exceptions.get(0) instanceof StreamResetException, name + ": " + exceptions);
        }
      }
      if (!run.client.isOpen()) {
        run.opened.forEach(c -> assertFalse(c.stream().isOpen(), name + ": a stream outlived its session"));
      }
    }
  }

  @Test
  void refusedStreamsAreResetAndTheSessionGoesOn() {
    try (Run run = new Run(Recordings.probe("stream_cap"))) {
      assertTrue(run.client.isActive());
      assertTrue(run.opened.get(0).stream().isOpen() && run.opened.get(1).stream().isOpen());
      for (CollectedStream refused : run.opened.subList(2, 4)) {
        assertFalse(refused.stream().isOpen());
        assertInstanceOf(StreamResetException.class, refused.collect().exceptions().get(0));
      }
    }
  }

  @Test
  void tentaclesProtocolErrorGoAwayEndsOurSessionWithItsCode() {
    try (Run run = new Run(Recordings.probe("reuse_id"))) {
      YamuxException e = (YamuxException) run.sessionErrors.get(0);
      assertEquals(YamuxException.Reason.PEER_GO_AWAY, e.reason());
      assertEquals(1, e.goAwayCode());
      assertEquals(e, run.opened.get(0).collect().exceptions().get(0));
      assertFalse(run.client.isOpen());
    }
  }

  @Test
  void tentaclesPingsAreAnsweredAndItsSilentCloseIsAnError() {
    try (Run run = new Run(Recordings.probe("no_pong_stream"))) {
      List<String> pongs = run.written.stream().filter(f -> f.type() == YamuxFrames.TYPE_PING)
          .map(Wire.Frame::headerHex).toList();
      assertEquals(List.of("000200020000000000000001", "000200020000000000000002"), pongs);
      assertEquals(YamuxException.Reason.CONNECTION_CLOSED,
          ((YamuxException) run.opened.get(0).collect().exceptions().get(0)).reason());
    }
  }

  @Test
  void tentaclesGoAwayZeroIsAnOrderlyEnd() {
    try (Run run = new Run(Recordings.probe("goaway"))) {
      assertFalse(run.client.isOpen());
      assertTrue(run.opened.get(0).collect().exceptions().isEmpty());
      assertEquals("000300000000000000000000", run.written.get(run.written.size() - 1).headerHex());
    }
  }
}
