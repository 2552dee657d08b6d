// Runs CKB's light client (@nervosnetwork/ckb-light-client-js, Rust compiled to WebAssembly) in
// headless Chromium, for secio-ckb's interop tests (io.secio.ckb.interop.LightClientBrowser).
//
//   node lc-driver.js --bootnode /ip4/127.0.0.1/tcp/PORT/ws/p2p/PEERID [--network TestNet]
//       [--ping-interval-secs 120] [--ping-timeout-secs 1200] [--log-level debug]
//       [--chromium /usr/bin/chromium] [--max-seconds 900]
//
// It serves the client's bundle from a loopback page that is cross-origin isolated (COOP same-origin,
// COEP require-corp: the wasm needs SharedArrayBuffer), starts the client with a config whose only
// bootnode is the one given, and writes one JSON line per event on stdout:
//   {"event":"page","url":...}             the page is loaded
//   {"event":"started","millis":N}         LightClient.start() resolved
//   {"event":"log","level":...,"text":...} a console line of the page or its workers (the client's log)
//   {"event":"result","id":N,"ok":true,"value":...} / {"event":"result","id":N,"ok":false,"error":...}
//   {"event":"error","text":...}           the page, the browser or the start failed
// Commands come on stdin, one JSON line each: {"id":N,"call":"getPeers","args":[]} calls that method of
// the running LightClient (bigints come back as decimal strings). When stdin ends (or on SIGTERM) it
// closes Chromium, removes its profile folder and exits; it does so by itself after --max-seconds, so
// that nothing outlives a test that lost track of it.
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const http = require("http");
const readline = require("readline");
const puppeteer = require("puppeteer-core");

function option(name, fallback) {
  const at = process.argv.indexOf("--" + name);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const bootnode = option("bootnode", null);
const network = option("network", "TestNet");
const pingInterval = Number(option("ping-interval-secs", "120"));
const pingTimeout = Number(option("ping-timeout-secs", "1200"));
const logLevel = option("log-level", "debug");
const chromium = option("chromium", "/usr/bin/chromium");
const maxSeconds = Number(option("max-seconds", "900"));
// A console line is cut here: the client's database debug lines dump whole values.
const MAX_LOG_LINE = 4000;
if (!bootnode) {
  process.stderr.write("usage: node lc-driver.js --bootnode MULTIADDR [...]\n");
  process.exit(2);
}

// The client logs through tracing-wasm: "%cLEVEL%c file:line%c message" followed by three CSS
// arguments. The format string alone, without its %c, is the line.
function consoleText(msg) {
  const args = msg.args();
  const first = args.length > 0 && args[0].remoteObject ? args[0].remoteObject() : null;
  const text = first && first.type === "string" && first.value.includes("%c")
    ? first.value.replace(/%c/g, "")
    : msg.text();
  return text.length > MAX_LOG_LINE ? text.slice(0, MAX_LOG_LINE) + "..." : text;
}

function emit(event) {
  process.stdout.write(JSON.stringify(event, (k, v) => (typeof v === "bigint" ? v.toString() : v)) + "\n");
}

// TestNet's config with one bootnode; the rpc entry is required by the config's parser, and unused.
const chain = network === "MainNet" ? "mainnet" : "testnet";
const config = `chain = "${chain}"

[store]
path = "data/store"

[network]
path = "data/network"
listen_addresses = []
bootnodes = [${JSON.stringify(bootnode)}]
max_peers = 8
max_outbound_peers = 2
ping_interval_secs = ${pingInterval}
ping_timeout_secs = ${pingTimeout}
connect_outbound_interval_secs = 15
upnp = false
discovery_local_address = true
bootnode_mode = false

[rpc]
listen_address = "127.0.0.1:9000"
`;

const bundle = path.join(__dirname, "node_modules", "@nervosnetwork", "ckb-light-client-js", "dist", "index.js");
const page = path.join(__dirname, "lc-page.html");
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
};
const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  const file = url.pathname === "/" ? page : url.pathname === "/lc/index.js" ? bundle : null;
  if (url.pathname === "/favicon.ico") {
    res.writeHead(204, isolation);
    res.end();
    return;
  }
  if (file === null) {
    res.writeHead(404, isolation);
    res.end();
    return;
  }
  const type = file.endsWith(".html") ? "text/html; charset=utf-8" : "text/javascript; charset=utf-8";
  res.writeHead(200, { ...isolation, "Content-Type": type });
  fs.createReadStream(file).pipe(res);
});

let browser = null;
let profile = null;
let closing = null;

function close(code) {
  if (closing === null) {
    closing = (async () => {
      try {
        if (browser !== null) {
          await browser.close();
        }
      } catch (e) {
        // the browser is gone already
      }
      server.close();
      if (profile !== null) {
        fs.rmSync(profile, { recursive: true, force: true });
      }
      process.exit(code);
    })();
  }
  return closing;
}

process.on("SIGTERM", () => close(0));
process.on("SIGINT", () => close(0));
setTimeout(() => {
  emit({ event: "error", text: `still running after ${maxSeconds} s: closing` });
  close(1);
}, maxSeconds * 1000).unref();

async function main() {
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  profile = fs.mkdtempSync(path.join(os.tmpdir(), "secio-lc-chromium-"));
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profile,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  browser.on("disconnected", () => {
    if (closing === null) {
      emit({ event: "error", text: "Chromium disconnected" });
      close(1);
    }
  });
  const tab = await browser.newPage();
  tab.on("console", (msg) => emit({ event: "log", level: msg.type(), text: consoleText(msg) }));
  tab.on("pageerror", (err) => emit({ event: "error", text: "page: " + (err && err.stack ? err.stack : String(err)) }));
  tab.on("workercreated", (worker) => emit({ event: "worker", url: worker.url().slice(0, 60) }));
  await tab.goto(url, { waitUntil: "load" });
  await tab.waitForFunction("window.harnessReady === true");
  const isolated = await tab.evaluate(() => self.crossOriginIsolated);
  emit({ event: "page", url, crossOriginIsolated: isolated });
  const started = Date.now();
  await tab.evaluate((n, c, l) => window.harness.start(n, c, l), network, config, logLevel);
  emit({ event: "started", millis: Date.now() - started });

  const lines = readline.createInterface({ input: process.stdin });
  lines.on("line", async (line) => {
    if (line.trim() === "") {
      return;
    }
    let command;
    try {
      command = JSON.parse(line);
    } catch (e) {
      emit({ event: "error", text: "not a JSON command: " + line });
      return;
    }
    try {
      const value = await tab.evaluate(async (call, args) => {
        const result = await window.harness.client[call](...args);
        // Across the page boundary bigints do not survive: make them strings first.
        return JSON.parse(JSON.stringify(result === undefined ? null : result,
          (k, v) => (typeof v === "bigint" ? v.toString() : v)));
      }, command.call, command.args || []);
      emit({ event: "result", id: command.id, ok: true, value });
    } catch (e) {
      emit({ event: "result", id: command.id, ok: false, error: String(e && e.message ? e.message : e) });
    }
  });
  lines.on("close", () => close(0));
}

main().catch((e) => {
  emit({ event: "error", text: "start: " + (e && e.stack ? e.stack : String(e)) });
  close(1);
});
