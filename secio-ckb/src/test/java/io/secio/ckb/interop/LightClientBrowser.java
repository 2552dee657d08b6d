package io.secio.ckb.interop;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.secio.testsupport.ChildProcess;
import io.secio.testsupport.NodeJs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * CKB's own light client ({@code @nervosnetwork/ckb-light-client-js}, Rust compiled to WebAssembly)
 * running in headless Chromium, as the real peer of an interop test: {@code lc-driver.js} of this
 * module's {@code src/test/js} serves it from a cross-origin-isolated loopback page and starts it
 * with the listeners under test as its bootnodes.
 *
 * <pre>{@code
 * try (LightClientBrowser lc = LightClientBrowser.start(LightClientBrowser.Options.testnet(bootnode))) {
 *   lc.awaitStarted();
 *   lc.awaitLog(line -> line.contains("SessionOpen"));
 *   JsonArray peers = lc.getPeers();
 * }
 * }</pre>
 *
 * <p>The client's log (its console lines, each {@code LEVEL file:line message}) is kept from the
 * start and can be awaited line by line. The driver is a {@link ChildProcess}: every wait has its hang
 * guard, {@link ChildProcess#WAIT}, and fails with what the driver printed. Nothing here skips: without
 * {@code node}, Chromium or the npm packages, {@link #start} fails and says which install step is
 * missing. {@link #close()} ends the driver, which closes Chromium; whatever of it still runs after a
 * minute is killed. Thread-safe.
 */
public final class LightClientBrowser implements AutoCloseable {
  /** The driver's folder: this module's {@code src/test/js}. */
  public static final Path JS = NodeJs.jsFolder();
  /** Where Debian's {@code chromium} package puts the browser. */
  public static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  private static final String PACKAGE = "@nervosnetwork/ckb-light-client-js";
  /** How long the driver may take to close Chromium before it and what it started are killed. */
  private static final Duration CLOSING = Duration.ofMinutes(1);
  private static final Gson GSON = new Gson();

  /**
   * How the client is started.
   *
   * @param bootnodes the peers it dials at once, such as {@code /ip4/127.0.0.1/tcp/P/ws/p2p/ID}
   * @param network {@code TestNet} or {@code MainNet}
   * @param pingIntervalSecs its {@code ping_interval_secs}
   * @param pingTimeoutSecs its {@code ping_timeout_secs}
   * @param logLevel {@code trace}, {@code debug}, {@code info} or {@code error}
   */
  public record Options(List<String> bootnodes, String network, int pingIntervalSecs, int pingTimeoutSecs,
      String logLevel) {
    /** Copies the bootnodes; at least one. */
    public Options {
      bootnodes = List.copyOf(bootnodes);
      if (bootnodes.isEmpty()) {
        throw new IllegalArgumentException("no bootnode");
      }
    }

    /** TestNet with the given bootnodes, pings every 5 s with a 30 s timeout, debug logs. */
    public static Options testnet(String... bootnodes) {
      return new Options(List.of(bootnodes), "TestNet", 5, 30, "debug");
    }

    /** These options with another log level. */
    public Options withLogLevel(String level) {
      return new Options(bootnodes, network, pingIntervalSecs, pingTimeoutSecs, level);
    }
  }

  /** A console line of the client, with when it arrived. */
  public record LogLine(long nanos, String level, String text) {
    @Override
    public String toString() {
      return level + " " + text;
    }
  }

  private final ChildProcess driver;
  private final long startNanos = System.nanoTime();
  private final AtomicInteger nextId = new AtomicInteger();

  private LightClientBrowser(ChildProcess driver) {
    this.driver = driver;
  }

  /**
   * Starts the driver and so Chromium and the client; {@link #awaitStarted} waits for the client.
   *
   * @throws AssertionError naming the missing install step if node, Chromium or the npm packages are missing
   */
  public static LightClientBrowser start(Options options) throws IOException {
    requireInstalled();
    List<String> args = new ArrayList<>();
    options.bootnodes().forEach(b -> args.addAll(List.of("--bootnode", b)));
    args.addAll(List.of("--network", options.network(),
        "--ping-interval-secs", Integer.toString(options.pingIntervalSecs()),
        "--ping-timeout-secs", Integer.toString(options.pingTimeoutSecs()),
        "--log-level", options.logLevel(), "--chromium", CHROMIUM.toString()));
    return new LightClientBrowser(NodeJs.start(JS, "lc-driver.js", args));
  }

  /** Fails, naming the install step, unless node, Chromium and the npm packages are there. */
  public static void requireInstalled() {
    String missing = Files.isExecutable(CHROMIUM)
        ? NodeJs.missing(JS, PACKAGE, "puppeteer-core").orElse(null)
        : CHROMIUM + " is missing: apt-get install -y chromium (README, \"Two commands\")";
    if (missing != null) {
      throw new AssertionError("the light client interop cannot run: " + missing
          + " (./scripts/test.sh installs the npm packages)");
    }
  }

  private static String kind(JsonObject event) {
    return event.get("event").getAsString();
  }

  /**
   * Waits until the client's {@code start()} resolved; an error the driver reports first fails it.
   *
   * @return how long {@code start()} took, by the page's clock
   */
  public Duration awaitStarted() {
    JsonObject event = driver.awaitEvent("the client's start",
        e -> kind(e).equals("started") || kind(e).equals("error")).event();
    if (kind(event).equals("error")) {
      throw new AssertionError("the driver failed: " + event.get("text").getAsString() + "\n" + driver);
    }
    return Duration.ofMillis(event.get("millis").getAsLong());
  }

  /**
   * The first log line since the start that {@code match} accepts, waiting for it.
   *
   * @throws AssertionError if none comes within the hang guard or the driver ends first
   */
  public LogLine awaitLog(Predicate<String> match) {
    return logLine(driver.awaitEvent("a log line of the client that the test awaits",
        e -> kind(e).equals("log") && match.test(e.get("text").getAsString())));
  }

  private static LogLine logLine(ChildProcess.Line line) {
    JsonObject event = line.event();
    return new LogLine(line.nanos(), event.get("level").getAsString(), event.get("text").getAsString());
  }

  /** Every log line so far. */
  public List<LogLine> log() {
    return events("log").map(LightClientBrowser::logLine).toList();
  }

  /** Errors the driver reported (page errors, a failed start). */
  public List<String> errors() {
    return events("error").map(line -> line.event().get("text").getAsString()).toList();
  }

  private Stream<ChildProcess.Line> events(String kind) {
    return driver.timedOutLines().stream().filter(line -> kind(line.event()).equals(kind));
  }

  /**
   * Calls {@code method} of the running {@code LightClient} in the page and returns its result as
   * JSON (bigints as decimal strings).
   */
  public JsonElement call(String method, Object... args) throws IOException {
    int id = nextId.incrementAndGet();
    JsonObject command = new JsonObject();
    command.addProperty("id", id);
    command.addProperty("call", method);
    JsonArray arguments = new JsonArray();
    for (Object a : args) {
      arguments.add(GSON.toJsonTree(a));
    }
    command.add("args", arguments);
    driver.writeLine(command.toString());
    JsonObject result = driver.awaitEvent("the result of " + method,
        e -> kind(e).equals("result") && e.get("id").getAsInt() == id).event();
    if (!result.get("ok").getAsBoolean()) {
      throw new AssertionError("the client's call failed: " + result.get("error"));
    }
    return result.get("value");
  }

  /** The client's {@code getPeers()}: one object per connected peer (nodeId, addresses, protocols, ...). */
  public JsonArray getPeers() throws IOException {
    return call("getPeers").getAsJsonArray();
  }

  /** Seconds since the driver started, of a log line, for reports. */
  public double secondsOf(LogLine line) {
    return secondsOf(line.nanos());
  }

  /** Seconds since the driver started, of a {@link System#nanoTime()} reading. */
  public double secondsOf(long nanos) {
    return (nanos - startNanos) / 1e9;
  }

  /** The driver's process and, while it runs, Chromium's below it: for a test that checks they are gone. */
  public List<ProcessHandle> processes() {
    List<ProcessHandle> all = new ArrayList<>(driver.toHandle().descendants().toList());
    all.add(0, driver.toHandle());
    return all;
  }

  /**
   * Ends the driver (it closes Chromium) and kills whatever of it, or of Chromium, still runs after
   * a minute; an interrupt skips the waiting but not the killing.
   */
  @Override
  public void close() {
    driver.stop(CLOSING);
  }
}
