'use strict';
// tentacle's protocol-select message (tentacle's protocol_select.mol) described with
// @ckb-lumos/codec, an independent molecule implementation. Reads {cases: [{value, bytes}]} as JSON
// on stdin (value = {name, support_versions}); for each case writes back what lumos packs `value`
// into and what it unpacks `bytes` into. Byte strings are hex without 0x. Used by
// ProtocolInfoLumosTest (secio-tentacle).
const { molecule, bytes } = require('@ckb-lumos/codec');

const hex = (b) => bytes.hexify(b).slice(2);
const utf8 = {
  pack: (s) => new TextEncoder().encode(s),
  unpack: (b) => new TextDecoder('utf-8', { fatal: true }).decode(b),
};

// vector String <byte>; vector StringVec <String>;
const String = molecule.byteVecOf(utf8);
const StringVec = molecule.vector(String);
// table ProtocolInfo { name: String, support_versions: StringVec }
const ProtocolInfo = molecule.table({ name: String, support_versions: StringVec }, ['name', 'support_versions']);

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const { cases } = JSON.parse(input);
  const results = cases.map((c) => ({
    packed: hex(ProtocolInfo.pack(c.value)),
    unpacked: ProtocolInfo.unpack(bytes.bytify('0x' + c.bytes)),
  }));
  process.stdout.write(JSON.stringify({ results }) + '\n');
});
