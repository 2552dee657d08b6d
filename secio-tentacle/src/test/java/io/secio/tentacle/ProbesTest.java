package io.secio.tentacle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.secio.streams.StreamChannel;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The protocol-select probes of {@code probes.json} ({@code docs/STREAMS.md} §8.5): our listener,
 * fed each probe's bytes, answers exactly as tentacle did (the ACK, the reply or the empty reply
 * and the RST, the session timeout's GoAway 0 at 5 s when no protocol is open); our dialer, fed
 * tentacle's answers, fails the open with a typed reason and keeps the session.
 */
class ProbesTest {

  @ParameterizedTest
  @ValueSource(strings = {"baseline", "unknown_proto", "no_versions", "unknown_versions", "ping_only"})
  void ourListenerAnswersAsTentacleDid(String name) {
    var probe = Recorded.probe(name);
    EmbeddedChannel listener = new EmbeddedChannel(Tentacle.insecureServer(TestProtocols.listener()));
    ByteArrayOutputStream ours = new ByteArrayOutputStream();
    for (byte[] chunk : Recorded.hexOf(probe.getAsJsonArray("events"), "a2b")) {
      listener.writeInbound(Unpooled.wrappedBuffer(chunk));
      listener.runPendingTasks();
      ours.writeBytes(Recorded.written(listener));
    }
    // tentacle's session timeout is 5 s from the session's start.
    listener.advanceTimeBy(TentacleConfig.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    listener.runScheduledPendingTasks();
    listener.runPendingTasks();
    ours.writeBytes(Recorded.written(listener));
    byte[] theirs = Recorded.concat(Recorded.hexOf(probe.getAsJsonArray("events"), "b2a"));
    assertEquals(Recorded.HEX.formatHex(theirs), Recorded.HEX.formatHex(ours.toByteArray()));
    assertEquals(name.equals("baseline"), listener.isOpen(), "closed after GoAway 0 unless a protocol is open");
    listener.close();
    Recorded.written(listener);
    assertFalse(listener.finishAndReleaseAll());
  }

  @ParameterizedTest
  @ValueSource(strings = {"unknown_proto", "unknown_versions"})
  void ourDialerSurvivesTentaclesRefusal(String name) throws Exception {
    var probe = Recorded.probe(name);
    // What the probe asked for, registered here so that our dialer may ask for it.
    String protocol = name.equals("unknown_proto") ? "/test/nope" : TestProtocols.ECHO;
    List<String> offer = name.equals("unknown_proto") ? List.of("1") : List.of("3", "9");
    TentacleConfig config = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(protocol, offer, new TestProtocols.Collect())).build();
    EmbeddedChannel dialer = new EmbeddedChannel(Tentacle.insecureClient(config));
    TentacleSession session = Tentacle.sessionFuture(dialer).getNow();
    Future<StreamChannel> open = session.openStream(protocol, new TestProtocols.Collect());
    dialer.runPendingTasks();
    List<Recorded.Frame> sent = Recorded.frames(Recorded.written(dialer));
    assertEquals(2, sent.size(), "SYN and the offer, in one flush");
    List<byte[]> answers = Recorded.hexOf(probe.getAsJsonArray("events"), "b2a");
    for (byte[] chunk : answers.subList(0, answers.size() - 1)) {
      dialer.writeInbound(Unpooled.wrappedBuffer(chunk));
      dialer.runPendingTasks();
    }
    assertTrue(open.isDone());
    TentacleException refused = assertInstanceOf(TentacleException.class, open.cause());
    assertEquals(TentacleException.Reason.PROTOCOL_REFUSED, refused.reason());
    assertFalse(session.hasProtocol(protocol), "free to be opened again");
    assertTrue(dialer.isOpen(), "the session goes on");
    // Whatever our dialer wrote after the refusal was at most a RST of its own (it reset first).
    for (Recorded.Frame f : Recorded.frames(Recorded.written(dialer))) {
      assertEquals(8, f.flags() & 8, "only a reset: " + f.describe());
    }
    // Then tentacle's session timeout: GoAway 0, which our dialer answers and closes on.
    dialer.writeInbound(Unpooled.wrappedBuffer(answers.get(answers.size() - 1)));
    dialer.runPendingTasks();
    assertEquals("000300000000000000000000", Recorded.HEX.formatHex(Recorded.written(dialer)));
    assertFalse(dialer.isOpen());
    assertFalse(dialer.finishAndReleaseAll());
  }
}
