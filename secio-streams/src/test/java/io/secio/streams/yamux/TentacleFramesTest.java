package io.secio.streams.yamux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.streams.Muxer;
import io.secio.streams.SessionPair;
import io.secio.streams.StreamChannel;
import io.secio.testsupport.Collect;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The tentacle profile writes what tentacle 0.7.7 wrote in the recorded sessions ({@code
 * docs/STREAMS.md} §4.2), frame by frame: each expected header is read from the recording, not
 * typed in.
 */
class TentacleFramesTest {
  private static final YamuxConfig TENTACLE = YamuxConfig.tentacle();

  /** The recorded header of the first frame in {@code direction} whose decoded text contains {@code what}. */
  private static String recorded(String direction, String what) {
    for (JsonObject frame : Recordings.sessionFrames(direction)) {
      if (frame.get("text").getAsString().contains(what)) {
        return frame.get("header_hex").getAsString();
      }
    }
    throw new AssertionError("no " + direction + " frame with " + what);
  }

  private static List<String> headers(EmbeddedChannel channel) {
    return Wire.frames(channel).stream().map(Wire.Frame::headerHex).collect(Collectors.toList());
  }

  @Test
  void openAndAcceptCarryTheWholeMaxWindowAtOnce() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(TENTACLE))) {
      new io.secio.streams.StreamChannelBootstrap(pair.client).handler(Collect.observing()).open();
      List<String> open = headers(pair.client);
      assertEquals(List.of(recorded("a2b", "WindowUpdate flags=SYN stream=1 length=786432")), open);
      pair.server.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, 1, 786432));
      assertEquals(List.of(recorded("b2a", "WindowUpdate flags=ACK stream=1 length=786432")), headers(pair.server));
    }
  }

  @Test
  void aSynWithoutExtraWindowIsStillAnsweredWithTheFullDelta() {
    // probes.json, baseline: the raw client's SYN carried delta 0; tentacle answered ACK +786432.
    JsonObject baseline = Recordings.probe("baseline");
    String syn = Recordings.chunks(baseline, "a2b").get(0);
    String ack = Recordings.chunks(baseline, "b2a").get(0);
    try (SessionPair pair = new SessionPair(Muxer.yamux(TENTACLE))) {
      pair.server.writeInbound(Unpooled.wrappedBuffer(Wire.HEX.parseHex(syn)));
      assertEquals(ack, Wire.HEX.formatHex(Wire.written(pair.server)));
    }
  }

  @Test
  void writesAreOneFrameEachAndCutAtTheWindowEdge() {
    // The recorded dialer's writes on stream 1: protocol-select (52 bytes), then echo messages of
    // 0, 1, 1000, 300000, 1100000 and 7 bytes, each behind a 4-byte length.
    List<Long> recordedData = new ArrayList<>();
    List<Long> recordedUpdates = new ArrayList<>();
    for (JsonObject f : Recordings.sessionFrames("a2b")) {
      if (f.get("type").getAsString().equals("Data") && f.get("stream_id").getAsLong() == 1) {
        recordedData.add(f.get("length").getAsLong());
      }
    }
    for (JsonObject f : Recordings.sessionFrames("b2a")) {
      if (f.get("type").getAsString().equals("WindowUpdate") && f.get("stream_id").getAsLong() == 1
          && f.get("flags_raw").getAsInt() == 0) {
        recordedUpdates.add(f.get("length").getAsLong());
      }
    }
    try (SessionPair pair = new SessionPair(Muxer.yamux(TENTACLE))) {
      StreamChannel out = pair.open(Collect.observing());
      for (int size : new int[] {52, 4, 5, 1004, 300004, 1100004, 11}) {
        out.write(Unpooled.wrappedBuffer(new byte[size]));
      }
      out.flush();
      List<Long> sent = new ArrayList<>();
      List<Long> updates = new ArrayList<>();
      for (int round = 0; round < 10; round++) {
        for (Wire.Frame f : Wire.frames(pair.client)) {
          if (f.type() == YamuxFrames.TYPE_DATA) {
            sent.add(f.length());
          }
          pair.server.writeInbound(Unpooled.wrappedBuffer(Wire.header(f.type(), f.flags(), f.streamId(), f.length()),
              f.body()));
        }
        for (Wire.Frame f : Wire.frames(pair.server)) {
          if (f.type() == YamuxFrames.TYPE_WINDOW_UPDATE) {
            updates.add(f.length());
          }
          pair.client.writeInbound(Wire.frame(f.type(), f.flags(), f.streamId(), f.length()));
        }
      }
      assertEquals(recordedData, sent, "Data frames on stream 1");
      assertEquals(List.of(52L, 4L, 5L, 1004L, 300004L, 747507L, 352497L, 11L), sent);
      assertEquals(recordedUpdates, updates, "the listener's window updates on stream 1");
    }
  }

  @Test
  void keepalivePingsCountFromOneAndAreEchoed() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(TENTACLE))) {
      pair.client.advanceTimeBy(30, TimeUnit.SECONDS);
      pair.client.runScheduledPendingTasks();
      List<String> ping = headers(pair.client);
      assertEquals(List.of(recorded("a2b", "Ping flags=SYN stream=0 length=1")), ping);
      pair.server.writeInbound(Unpooled.wrappedBuffer(Wire.HEX.parseHex(ping.get(0))));
      assertEquals(List.of(recorded("b2a", "Ping flags=ACK stream=0 length=1")), headers(pair.server));

      pair.client.advanceTimeBy(30, TimeUnit.SECONDS);
      pair.client.runScheduledPendingTasks();
      assertEquals(List.of("000200010000000000000002"), headers(pair.client), "the counter goes on: 2");
    }
  }

  @Test
  void closeIsWindowUpdateFinAnsweredWithFin() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(TENTACLE))) {
      StreamChannel out = pair.open(Collect.observing());
      out.close();
      List<String> fin = headers(pair.client);
      assertEquals(List.of(recorded("a2b", "WindowUpdate flags=FIN stream=1 length=0")), fin);
      pair.server.writeInbound(Unpooled.wrappedBuffer(Wire.HEX.parseHex(fin.get(0))));
      assertEquals(List.of(recorded("b2a", "WindowUpdate flags=FIN stream=1 length=0")), headers(pair.server));
    }
  }

  @Test
  void goAwayIsAnsweredWithGoAwayAndTheClose() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(TENTACLE))) {
      pair.open(Collect.observing());
      pair.client.close();
      List<String> goAway = headers(pair.client);
      assertEquals(List.of(recorded("a2b", "GoAway flags=0 stream=0 length=0")), goAway);
      assertFalse(pair.client.isOpen(), "closed once the GoAway is written");
      pair.server.writeInbound(Unpooled.wrappedBuffer(Wire.HEX.parseHex(goAway.get(0))));
      assertEquals(List.of(recorded("b2a", "GoAway flags=0 stream=0 length=0")), headers(pair.server));
      assertFalse(pair.server.isOpen());
    }
  }

  @Test
  void repeatedGoAwaysAreTolerated() {
    try (SessionPair pair = new SessionPair(Muxer.yamux(TENTACLE))) {
      // As the recorded closer did: GoAway 0, then two more after the answer.
      pair.server.writeInbound(Wire.frame(YamuxFrames.TYPE_GO_AWAY, 0, 0, 0), Wire.frame(YamuxFrames.TYPE_GO_AWAY, 0, 0, 0),
          Wire.frame(YamuxFrames.TYPE_GO_AWAY, 0, 0, 0));
      assertEquals(List.of("000300000000000000000000"), headers(pair.server), "one answer");
      assertFalse(pair.server.isOpen());
    }
  }

  @Test
  void streamsOverTheCapAreRefusedWithAckRst() {
    // probes.json, stream_cap: with max_stream_count 2, streams 5 and 7 got WindowUpdate ACK|RST.
    JsonObject probe = Recordings.probe("stream_cap");
    List<String> refusals = Recordings.chunks(probe, "b2a").stream()
        .filter(h -> h.startsWith("0001000a")).collect(Collectors.toList());
    assertEquals(List.of("0001000a0000000500000000", "0001000a0000000700000000"), refusals);
    YamuxConfig capTwo = TENTACLE.toBuilder().maxStreams(2).build();
    try (SessionPair pair = new SessionPair(Muxer.yamux(capTwo))) {
      for (int id = 1; id <= 7; id += 2) {
        pair.server.writeInbound(Wire.windowUpdate(YamuxFrames.FLAG_SYN, id, 0));
      }
      List<String> answers = headers(pair.server);
      assertEquals(List.of("0001000200000001000c0000", "0001000200000003000c0000", refusals.get(0), refusals.get(1)),
          answers);
      assertTrue(pair.server.isActive(), "the session goes on");
      assertEquals(2, pair.serverStreams.size());
    }
  }
}
