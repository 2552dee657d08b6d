// A real yamux peer for secio-streams' interop tests, over a plain TCP socket on loopback.
//
//   node yamux-peer.js --impl yamux-js|chainsafe listen            -> {"event":"listening","port":N}
//   node yamux-peer.js --impl yamux-js|chainsafe dial --port N     -> {"event":"connected"}
//
// Streams the other side opens are echoed: every byte goes back, and the peer's half-close is
// answered with ours; each such stream is reported when it ends: {"event":"inbound","id","bytes",
// "sha256","end":"fin"|"reset"}. Commands on stdin, one JSON object a line:
//   {"cmd":"open","tag":T,"bytes":N,"seed":S}  open a stream, send N pattern bytes, half-close, read
//                                              the echo to its end -> {"event":"echo","tag","bytes","sha256"}
//   {"cmd":"reset","tag":T}                    open a stream, send 8 bytes, reset it -> {"event":"reset-sent","tag"}
// Pattern byte j of seed S: (j * 131 + S) mod 256. stdin's end closes the session and exits.
//
// yamux-js 0.2.0 needs shims, each kept to what its own code lacks: it drops the bytes of any TCP
// chunk that ends inside a frame, so the socket's bytes are re-cut at frame boundaries before it
// sees them; it ignores FIN and surfaces no RST, so the frames it is given are watched here and a
// FIN ends the stream's readable side (once yamux-js took the frames before it), an RST reports a reset; its close() sends FIN ahead of
// writes still queued, so it is called once they are written; its Client takes no handler for the
// peer's streams, so one is set on it; it has no reset, so the RST frame is sent through it. It also
// ignores the window a SYN grants, which is why the libp2p profile grants none there (go-yamux's way).
import net from 'node:net'
import crypto from 'node:crypto'
import readline from 'node:readline'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const args = process.argv.slice(2)
const impl = args[args.indexOf('--impl') + 1]
const mode = args.includes('listen') ? 'listen' : 'dial'
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n')

function pattern (n, seed) {
  const b = Buffer.alloc(n)
  for (let j = 0; j < n; j++) b[j] = (j * 131 + seed) & 0xff
  return b
}

// ---- the two implementations behind one small shape: open(), and streams with write/end/reset ----

function yamuxJs (socket, client, onStream) {
  const { Client, Server } = require('yamux-js')
  const { Header } = require('yamux-js/lib/header')
  const config = { enableKeepAlive: false, logger: () => {} }
  const byId = new Map()
  const wrap = (s) => {
    const h = { id: s.ID(), handlers: {} }
    s.on('data', (d) => h.handlers.data?.(d))
    s.on('error', () => {})
    h.write = (b) => new Promise((resolve) => s.write(b, resolve))
    h.end = () => s.end(() => s.close()) // its close() sends FIN at once: only after the queued writes
    h.reset = () => session.send(new Header(0, 1, 8, s.ID(), 0))
    byId.set(h.id, h)
    return h
  }
  const session = client ? new Client(config) : new Server((s) => onStream(wrap(s)), config)
  if (client) session.onStream = (s) => onStream(wrap(s)) // its Client takes no handler for the peer's streams
  session.on('error', () => {})
  let pending = Buffer.alloc(0)
  socket.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk])
    for (;;) {
      if (pending.length < 12) return
      const type = pending[1]
      const flags = pending.readUInt16BE(2)
      const id = pending.readUInt32BE(4)
      const size = 12 + (type === 0 ? pending.readUInt32BE(8) : 0)
      if (pending.length < size) return
      const frame = pending.subarray(0, size)
      pending = pending.subarray(size)
      const h = byId.get(id)
      const ends = h && (flags & 12) && !h.ended
      if (h && h.ended && !ends && ((flags & 12) || size > 12)) {
        process.stderr.write(`data, a FIN or an RST after FIN or RST on stream ${id}: flags ${flags}\n`)
      }
      if (ends) h.ended = true
      // The FIN ends the readable side once yamux-js took this frame and every one before it (its
      // session may hold frames back while its own output waits), and their data went up.
      session.write(Buffer.from(frame), () => {
        if (ends && !(flags & 8)) setImmediate(() => h.handlers.end?.())
      })
      if (ends && (flags & 8)) h.handlers.reset?.()
    }
  })
  session.on('data', (d) => socket.write(d))
  return { open: () => wrap(session.open()), close: () => session.close() }
}

async function chainsafe (socket, client, onStream) {
  const { yamux } = await import('@chainsafe/libp2p-yamux')
  const { defaultLogger } = await import('@libp2p/logger')
  const { pushable } = await import('it-pushable')
  const wrap = (s) => {
    const h = { id: s.id, handlers: {} }
    const outgoing = pushable()
    s.sink(outgoing).catch(() => {})
    ;(async () => {
      try {
        for await (const chunk of s.source) h.handlers.data?.(Buffer.from(chunk.subarray()))
        h.handlers.end?.()
      } catch (e) {
        h.handlers.reset?.()
      }
    })()
    h.write = async (b) => { outgoing.push(b) }
    h.end = () => outgoing.end()
    h.reset = () => s.abort(new Error('reset by the test'))
    return h
  }
  const muxer = yamux({ enableKeepAlive: false })({ logger: defaultLogger() }).createStreamMuxer({
    direction: client ? 'outbound' : 'inbound',
    onIncomingStream: (s) => onStream(wrap(s))
  })
  ;(async () => {
    for await (const chunk of muxer.source) socket.write(chunk instanceof Uint8Array ? chunk : chunk.subarray())
  })().catch(() => {})
  muxer.sink((async function * () { for await (const chunk of socket) yield new Uint8Array(chunk) })()).catch(() => {})
  return { open: () => wrap(muxer.newStream()), close: () => muxer.close() }
}

// ---- behaviour ----

function echo (stream) {
  const sha = crypto.createHash('sha256')
  let bytes = 0
  let done = false
  const report = (end) => {
    if (done) return
    done = true
    out({ event: 'inbound', id: stream.id, bytes, sha256: sha.digest('hex'), end })
  }
  stream.handlers.data = (d) => { bytes += d.length; sha.update(d); stream.write(d) }
  stream.handlers.end = () => { stream.end(); report('fin') }
  stream.handlers.reset = () => report('reset')
}

async function command (session, c) {
  const stream = session.open()
  if (c.cmd === 'reset') {
    await stream.write(pattern(8, 0))
    stream.reset()
    out({ event: 'reset-sent', tag: c.tag })
    return
  }
  const sha = crypto.createHash('sha256')
  let bytes = 0
  stream.handlers.data = (d) => { bytes += d.length; sha.update(d) }
  stream.handlers.end = () => out({ event: 'echo', tag: c.tag, bytes, sha256: sha.digest('hex') })
  stream.handlers.reset = () => out({ event: 'echo-reset', tag: c.tag, bytes })
  const data = pattern(c.bytes, c.seed)
  for (let off = 0; off < data.length; off += 65536) {
    await stream.write(data.subarray(off, Math.min(off + 65536, data.length)))
  }
  stream.end()
}

async function start (socket, client) {
  const session = await (impl === 'chainsafe' ? chainsafe : yamuxJs)(socket, client, echo)
  socket.on('close', () => { out({ event: 'closed' }); process.exit(0) })
  socket.on('error', () => {})
  const rl = readline.createInterface({ input: process.stdin })
  rl.on('line', (line) => { if (line.trim()) command(session, JSON.parse(line)).catch((e) => out({ event: 'error', message: String(e) })) })
  rl.on('close', () => { session.close(); setTimeout(() => process.exit(0), 200) })
}

if (mode === 'listen') {
  const server = net.createServer((socket) => { server.close(); start(socket, false) })
  server.listen(0, '127.0.0.1', () => out({ event: 'listening', port: server.address().port }))
} else {
  const socket = net.connect(Number(args[args.indexOf('--port') + 1]), '127.0.0.1', () => {
    out({ event: 'connected' })
    start(socket, true)
  })
}
