// A libp2p-shaped peer for secio-libp2p's ChainsafeYamuxMultistreamTest, over a plaintext TCP socket on
// loopback: @libp2p/multistream-select agrees on /yamux/1.0.0 on the raw connection (the dialer
// selects, the listener handles), @chainsafe/libp2p-yamux runs on it, and every stream negotiates
// its protocol with multistream-select again.
//
//   node yamux-multistream-peer.js listen            -> {"event":"listening","port":N}
//   node yamux-multistream-peer.js dial --port N     -> {"event":"connected"}
// then, once the muxer is agreed                     -> {"event":"muxer","protocol":"/yamux/1.0.0"}
//
// Streams the other side opens are offered /echo/1.0.0 only (anything else is answered na by the
// package): every byte goes back, the peer's half-close is answered with ours, and the stream is
// reported when it ends: {"event":"inbound","protocol","bytes","sha256","end":"fin"|"reset"}.
// Commands on stdin, one JSON object a line:
//   {"cmd":"open","tag":T,"protocol":P,"bytes":N,"seed":S}  open a stream, select P, send N pattern bytes,
//       half-close, read the answer to its end -> {"event":"echo","tag","bytes","sha256"}, or
//       {"event":"refused","tag"} when the other side answered na, {"event":"echo-reset","tag","bytes"}
// Pattern byte j of seed S: (j * 131 + S) mod 256. stdin's end closes the session and exits.
import net from 'node:net'
import crypto from 'node:crypto'
import readline from 'node:readline'
import { yamux } from '@chainsafe/libp2p-yamux'
import { defaultLogger } from '@libp2p/logger'
import * as mss from '@libp2p/multistream-select'
import { UnsupportedProtocolError } from '@libp2p/interface'
import { pushable } from 'it-pushable'

const YAMUX = '/yamux/1.0.0'
const ECHO = '/echo/1.0.0'
const args = process.argv.slice(2)
const mode = args.includes('listen') ? 'listen' : 'dial'
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n')
const log = defaultLogger().forComponent('yamux-multistream-peer')
const bytesOf = (chunk) => Buffer.from(chunk instanceof Uint8Array ? chunk : chunk.subarray())

function pattern (n, seed) {
  const b = Buffer.alloc(n)
  for (let j = 0; j < n; j++) b[j] = (j * 131 + seed) & 0xff
  return b
}

// The raw connection as the duplex multistream-select and the muxer read and write.
function duplex (socket) {
  return {
    source: (async function * () { for await (const chunk of socket) yield new Uint8Array(chunk) })(),
    sink: async (source) => { for await (const chunk of source) socket.write(bytesOf(chunk)) }
  }
}

async function echo (stream) {
  const { stream: s, protocol } = await mss.handle(stream, [ECHO], { log })
  const sha = crypto.createHash('sha256')
  let bytes = 0
  const back = pushable()
  s.sink(back).catch(() => {})
  try {
    for await (const chunk of s.source) {
      const b = bytesOf(chunk)
      bytes += b.length
      sha.update(b)
      back.push(b)
    }
    back.end()
    out({ event: 'inbound', protocol, bytes, sha256: sha.digest('hex'), end: 'fin' })
  } catch (e) {
    back.end()
    out({ event: 'inbound', protocol, bytes, sha256: sha.digest('hex'), end: 'reset' })
  }
}

async function open (muxer, c) {
  let s
  try {
    s = (await mss.select(muxer.newStream(), [c.protocol], { log })).stream
  } catch (e) {
    if (e instanceof UnsupportedProtocolError || e.name === 'UnsupportedProtocolError') {
      out({ event: 'refused', tag: c.tag })
      return
    }
    throw e
  }
  const data = pattern(c.bytes, c.seed)
  s.sink((async function * () {
    for (let off = 0; off < data.length; off += 65536) yield data.subarray(off, Math.min(off + 65536, data.length))
  })()).catch(() => {})
  const sha = crypto.createHash('sha256')
  let bytes = 0
  try {
    for await (const chunk of s.source) {
      const b = bytesOf(chunk)
      bytes += b.length
      sha.update(b)
    }
    out({ event: 'echo', tag: c.tag, bytes, sha256: sha.digest('hex') })
  } catch (e) {
    out({ event: 'echo-reset', tag: c.tag, bytes })
  }
}

async function start (socket, dialer) {
  socket.on('close', () => { out({ event: 'closed' }); process.exit(0) })
  socket.on('error', () => {})
  const raw = duplex(socket)
  const { stream: conn, protocol } = dialer
    ? await mss.select(raw, [YAMUX], { log })
    : await mss.handle(raw, [YAMUX], { log })
  const muxer = yamux({ enableKeepAlive: false })({ logger: defaultLogger() }).createStreamMuxer({
    direction: dialer ? 'outbound' : 'inbound',
    onIncomingStream: (s) => { echo(s).catch(() => {}) }
  })
  conn.sink(muxer.source).catch(() => {})
  muxer.sink(conn.source).catch(() => {})
  out({ event: 'muxer', protocol })
  const rl = readline.createInterface({ input: process.stdin })
  rl.on('line', (line) => {
    if (line.trim()) open(muxer, JSON.parse(line)).catch((e) => out({ event: 'error', message: String(e) }))
  })
  rl.on('close', () => { muxer.close(); setTimeout(() => process.exit(0), 200) })
}

const fail = (e) => { out({ event: 'error', message: String(e) }); process.exit(1) }
if (mode === 'listen') {
  const server = net.createServer((socket) => { server.close(); start(socket, false).catch(fail) })
  server.listen(0, '127.0.0.1', () => out({ event: 'listening', port: server.address().port }))
} else {
  const socket = net.connect(Number(args[args.indexOf('--port') + 1]), '127.0.0.1', () => {
    out({ event: 'connected' })
    start(socket, true).catch(fail)
  })
}
