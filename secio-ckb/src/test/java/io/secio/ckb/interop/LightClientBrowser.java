package io.secio.ckb.interop;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * CKB's own light client ({@code @nervosnetwork/ckb-light-client-js}, Rust compiled to WebAssembly)
 * running in headless Chromium, as the real peer of an interop test: {@code lc-driver.js} of this
 * module's {@code src/test/js} serves it from a cross-origin-isolated loopback page and starts it
 * with one bootnode, the listener under test.
 *
 * <pre>{@code
 * try (LightClientBrowser lc = LightClientBrowser.start(LightClientBrowser.Options.testnet(bootnode))) {
 *   lc.awaitStarted(Duration.ofMinutes(3));
 *   lc.awaitLog(line -> line.contains("SessionOpen"), Duration.ofMinutes(2));
 *   JsonArray peers = lc.getPeers();
 * }
 * }</pre>
 *
 * <p>The client's log (its console lines, each {@code LEVEL file:line message}) is kept from the
 * start and can be awaited line by line. Nothing here skips: without {@code node}, Chromium or the
 * npm packages, {@link #start} fails and says which install step is missing. {@link #close()} ends
 * the driver, which closes Chromium; whatever of it still runs then is killed. Thread-safe.
 */
public final class LightClientBrowser implements AutoCloseable {
  /** The driver's folder: this module's {@code src/test/js}. */
  public static final Path JS = Paths.get(System.getProperty("basedir", "")).toAbsolutePath()
      .resolve(Paths.get("src", "test", "js"));
  /** Where Debian's {@code chromium} package puts the browser. */
  public static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  private static final String PACKAGE = "@nervosnetwork/ckb-light-client-js";

  /**
   * How the client is started.
   *
   * @param bootnode the one peer it dials, such as {@code /ip4/127.0.0.1/tcp/P/ws/p2p/ID}
   * @param network {@code TestNet} or {@code MainNet}
   * @param pingIntervalSecs its {@code ping_interval_secs}
   * @param pingTimeoutSecs its {@code ping_timeout_secs}
   * @param logLevel {@code trace}, {@code debug}, {@code info} or {@code error}
   */
  public record Options(String bootnode, String network, int pingIntervalSecs, int pingTimeoutSecs, String logLevel) {
    /** TestNet with the given bootnode, pings every 5 s with a 30 s timeout, debug logs. */
    public static Options testnet(String bootnode) {
      return new Options(bootnode, "TestNet", 5, 30, "debug");
    }
  }

  /** A console line of the client, with when it arrived. */
  public record LogLine(long nanos, String level, String text) {
    @Override
    public String toString() {
      return level + " " + text;
    }
  }

  private final Process process;
  private final long startNanos = System.nanoTime();
  private final List<LogLine> log = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();
  private final StringBuffer stderr = new StringBuffer();
  private final CompletableFuture<JsonObject> started = new CompletableFuture<>();
  private final Map<Integer, CompletableFuture<JsonElement>> calls = new ConcurrentHashMap<>();
  private final AtomicInteger nextId = new AtomicInteger();

  private LightClientBrowser(Process process) {
    this.process = process;
    pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
    pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
    process.onExit().thenRun(() -> {
      synchronized (log) {
        log.notifyAll();
      }
      String why = "the driver exited (" + process.exitValue() + ")";
      started.completeExceptionally(new AssertionError(why + failures()));
      calls.values().forEach(c -> c.completeExceptionally(new AssertionError(why + failures())));
    });
  }

  /**
   * Starts the driver and so Chromium and the client; {@link #awaitStarted} waits for the client.
   *
   * @throws AssertionError naming the missing install step if node, Chromium or the npm packages are missing
   */
  public static LightClientBrowser start(Options options) throws IOException {
    requireInstalled();
    List<String> command = List.of("node", JS.resolve("lc-driver.js").toString(),
        "--bootnode", options.bootnode(), "--network", options.network(),
        "--ping-interval-secs", Integer.toString(options.pingIntervalSecs()),
        "--ping-timeout-secs", Integer.toString(options.pingTimeoutSecs()),
        "--log-level", options.logLevel(), "--chromium", CHROMIUM.toString());
    return new LightClientBrowser(new ProcessBuilder(command).directory(JS.toFile()).start());
  }

  /** Fails, naming the install step, unless node, Chromium and the npm packages are there. */
  public static void requireInstalled() {
    String missing = null;
    if (!Files.isExecutable(CHROMIUM)) {
      missing = CHROMIUM + " is missing: apt-get install -y chromium (README, \"Two commands\")";
    } else if (!Files.isDirectory(JS.resolve("node_modules").resolve(PACKAGE))
        || !Files.isDirectory(JS.resolve("node_modules").resolve("puppeteer-core"))) {
      missing = "the light client's npm packages are missing: npm ci --prefix secio-ckb/src/test/js (./scripts/test.sh does)";
    } else {
      try {
        if (new ProcessBuilder("node", "--version").start().waitFor() != 0) {
          missing = "node does not run";
        }
      } catch (IOException e) {
        missing = "no node on the PATH";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        missing = "interrupted";
      }
    }
    if (missing != null) {
      throw new AssertionError("the light client interop cannot run: " + missing);
    }
  }

  private void pump(BufferedReader reader, boolean stdout) {
    Thread t = new Thread(() -> {
      try (reader) {
        for (String line; (line = reader.readLine()) != null; ) {
          if (stdout) {
            event(line);
          } else {
            stderr.append(line).append('\n');
          }
        }
      } catch (IOException e) {
        // the driver ended: what came so far is all there is
      }
    }, "light client driver " + (stdout ? "stdout" : "stderr"));
    t.setDaemon(true);
    t.start();
  }

  private void event(String line) {
    JsonObject event;
    try {
      event = JsonParser.parseString(line).getAsJsonObject();
    } catch (JsonParseException | IllegalStateException e) {
      stderr.append("(stdout) ").append(line).append('\n');
      return;
    }
    switch (event.get("event").getAsString()) {
      case "log" -> {
        synchronized (log) {
          log.add(new LogLine(System.nanoTime(), event.get("level").getAsString(), event.get("text").getAsString()));
          log.notifyAll();
        }
      }
      case "started" -> started.complete(event);
      case "result" -> {
        CompletableFuture<JsonElement> call = calls.remove(event.get("id").getAsInt());
        if (call != null) {
          if (event.get("ok").getAsBoolean()) {
            call.complete(event.get("value"));
          } else {
            call.completeExceptionally(new AssertionError("the client's call failed: " + event.get("error")));
          }
        }
      }
      case "error" -> {
        synchronized (log) {
          errors.add(event.get("text").getAsString());
          log.notifyAll();
        }
        started.completeExceptionally(new AssertionError("the driver failed: " + event.get("text").getAsString()));
      }
      default -> {
        // page, worker: progress only
      }
    }
  }

  /**
   * Waits until the client's {@code start()} resolved.
   *
   * @return how long {@code start()} took, by the page's clock
   */
  public Duration awaitStarted(Duration timeout) throws InterruptedException {
    try {
      return Duration.ofMillis(started.get(timeout.toMillis(), TimeUnit.MILLISECONDS).get("millis").getAsLong());
    } catch (java.util.concurrent.ExecutionException e) {
      throw (AssertionError) e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the light client did not start within " + timeout + failures());
    }
  }

  /**
   * The first log line since the start that {@code match} accepts, waiting for it.
   *
   * @throws AssertionError if none comes within {@code timeout} or the driver ends first
   */
  public LogLine awaitLog(Predicate<String> match, Duration timeout) throws InterruptedException {
    return awaitLog(0, match, timeout);
  }

  /** The first log line at or after index {@code from} that {@code match} accepts, waiting for it. */
  public LogLine awaitLog(int from, Predicate<String> match, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (log) {
      int at = from;
      while (true) {
        for (; at < log.size(); at++) {
          if (match.test(log.get(at).text())) {
            return log.get(at);
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || !process.isAlive() && at >= log.size()) {
          throw new AssertionError("no such line from the light client within " + timeout + failures());
        }
        TimeUnit.NANOSECONDS.timedWait(log, left);
      }
    }
  }

  /** Every log line so far. */
  public List<LogLine> log() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  /** How many log lines came so far: an index for {@link #awaitLog(int, Predicate, Duration)}. */
  public int logSize() {
    synchronized (log) {
      return log.size();
    }
  }

  /** Errors the driver reported (page errors, a failed start). */
  public List<String> errors() {
    synchronized (log) {
      return List.copyOf(errors);
    }
  }

  /**
   * Calls {@code method} of the running {@code LightClient} in the page and returns its result as
   * JSON (bigints as decimal strings).
   */
  public JsonElement call(String method, Duration timeout, Object... args) throws IOException, InterruptedException {
    int id = nextId.incrementAndGet();
    CompletableFuture<JsonElement> result = new CompletableFuture<>();
    calls.put(id, result);
    JsonObject command = new JsonObject();
    command.addProperty("id", id);
    command.addProperty("call", method);
    JsonArray arguments = new JsonArray();
    for (Object a : args) {
      arguments.add(a == null ? null : JsonParser.parseString(new com.google.gson.Gson().toJson(a)));
    }
    command.add("args", arguments);
    synchronized (process) {
      OutputStream in = process.getOutputStream();
      in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }
    try {
      return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw (AssertionError) e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      calls.remove(id);
      throw new AssertionError(method + " did not answer within " + timeout + failures());
    }
  }

  /** The client's {@code getPeers()}: one object per connected peer (nodeId, addresses, protocols, ...). */
  public JsonArray getPeers(Duration timeout) throws IOException, InterruptedException {
    return call("getPeers", timeout).getAsJsonArray();
  }

  /** Seconds since the driver started, of a log line, for reports. */
  public double secondsOf(LogLine line) {
    return (line.nanos() - startNanos) / 1e9;
  }

  private String failures() {
    return (errors().isEmpty() ? "" : "\ndriver errors: " + errors())
        + (stderr.length() == 0 ? "" : "\ndriver stderr:\n" + stderr);
  }

  /** The driver's process and, while it runs, Chromium's below it: for a test that checks they are gone. */
  public List<ProcessHandle> processes() {
    List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
    all.add(0, process.toHandle());
    return all;
  }

  /**
   * Ends the driver (it closes Chromium) and kills whatever of it, or of Chromium, still runs after
   * a minute; an interrupt skips the waiting but not the killing.
   */
  @Override
  public void close() {
    List<ProcessHandle> children = process.descendants().toList();
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // gone already
    }
    try {
      if (!process.waitFor(1, TimeUnit.MINUTES)) {
        process.destroy();
        process.waitFor(1, TimeUnit.MINUTES);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      // Chromium runs in its own process group: kill what the driver did not close.
      for (ProcessHandle child : children) {
        if (child.isAlive()) {
          child.destroyForcibly();
        }
      }
      process.destroyForcibly();
    }
  }
}
