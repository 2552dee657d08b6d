package io.secio.ckb.message;

import static io.secio.ckb.message.MoleculeType.dynvec;
import static io.secio.ckb.message.MoleculeType.fixed;
import static io.secio.ckb.message.MoleculeType.fixvec;
import static io.secio.ckb.message.MoleculeType.option;
import static io.secio.ckb.message.MoleculeType.table;
import static io.secio.ckb.message.MoleculeType.union;

import java.util.Map;

/**
 * The types of CKB's schemas that its network protocols carry, as v0.205.0's {@code
 * util/gen-types/schemas/*.mol} declare them (field order and union ids are the wire). Constants.
 */
final class CkbTypes {
  /** A 208-byte header: 192 bytes of RawHeader, then a 16-byte nonce. */
  static final int HEADER_SIZE_IN_BYTES = 208;
  static final int HASH_SIZE_IN_BYTES = 32;

  static final MoleculeType BYTE = fixed("byte", 1);
  static final MoleculeType BOOL = fixed("Bool", 1);
  static final MoleculeType UINT16 = fixed("Uint16", 2);
  static final MoleculeType UINT32 = fixed("Uint32", 4);
  static final MoleculeType UINT64 = fixed("Uint64", 8);
  static final MoleculeType BYTE32 = fixed("Byte32", HASH_SIZE_IN_BYTES);
  static final MoleculeType HEADER = fixed("Header", HEADER_SIZE_IN_BYTES);
  static final MoleculeType BYTES = fixvec("Bytes", 1);
  static final MoleculeType BYTES_VEC = dynvec("BytesVec", BYTES);
  static final MoleculeType BYTE32_VEC = fixvec("Byte32Vec", HASH_SIZE_IN_BYTES);
  static final MoleculeType HEADER_VEC = fixvec("HeaderVec", HEADER_SIZE_IN_BYTES);

  // blockchain.mol: a block, as SendBlock carries it.
  static final MoleculeType PROPOSAL_SHORT_ID_VEC = fixvec("ProposalShortIdVec", 10);
  static final MoleculeType SCRIPT = table("Script", BYTE32, BYTE, BYTES);
  static final MoleculeType CELL_OUTPUT = table("CellOutput", UINT64, SCRIPT, option("ScriptOpt", SCRIPT));
  static final MoleculeType RAW_TRANSACTION = table("RawTransaction", UINT32,
      fixvec("CellDepVec", 37), BYTE32_VEC, fixvec("CellInputVec", 44),
      dynvec("CellOutputVec", CELL_OUTPUT), BYTES_VEC);
  static final MoleculeType TRANSACTION = table("Transaction", RAW_TRANSACTION, BYTES_VEC);
  static final MoleculeType UNCLE_BLOCK = table("UncleBlock", HEADER, PROPOSAL_SHORT_ID_VEC);
  static final MoleculeType BLOCK = table("Block", HEADER, dynvec("UncleBlockVec", UNCLE_BLOCK),
      dynvec("TransactionVec", TRANSACTION), PROPOSAL_SHORT_ID_VEC);

  // extensions.mol: Sync and Time.
  static final int GET_HEADERS = 0;
  static final int SEND_HEADERS = 1;
  static final int GET_BLOCKS = 2;
  static final int SEND_BLOCK = 3;
  static final int IN_IBD = 8;
  static final MoleculeType SEND_BLOCK_TABLE = table("SendBlock", BLOCK);
  static final MoleculeType SYNC_MESSAGE = union("SyncMessage", Map.of(
      GET_HEADERS, table("GetHeaders", BYTE32, BYTE32_VEC),
      SEND_HEADERS, table("SendHeaders", HEADER_VEC),
      GET_BLOCKS, table("GetBlocks", BYTE32_VEC),
      SEND_BLOCK, SEND_BLOCK_TABLE,
      IN_IBD, table("InIBD")));
  static final MoleculeType TIME = table("Time", UINT64);
  static final MoleculeType IDENTIFY = table("Identify", UINT64, BYTES, BYTES);

  // protocols.mol: identify, ping, discovery.
  static final MoleculeType ADDRESS = table("Address", BYTES);
  static final MoleculeType IDENTIFY_MESSAGE = table("IdentifyMessage",
      dynvec("AddressVec", ADDRESS), ADDRESS, BYTES);
  static final int PING = 0;
  static final int PONG = 1;
  static final MoleculeType PING_MESSAGE = table("PingMessage", union("PingPayload", Map.of(
      PING, table("Ping", UINT32),
      PONG, table("Pong", UINT32))));
  static final int GET_NODES = 0;
  static final int NODES = 1;
  static final MoleculeType PORT_OPT = option("PortOpt", UINT16);
  static final MoleculeType GET_NODES2 = table("GetNodes2", UINT32, UINT32, PORT_OPT, UINT64);
  static final MoleculeType NODE2 = table("Node2", BYTES_VEC, UINT64);
  static final MoleculeType DISCOVERY_MESSAGE = table("DiscoveryMessage", union("DiscoveryPayload", Map.of(
      GET_NODES, table("GetNodes", UINT32, UINT32, PORT_OPT),
      NODES, table("Nodes", BOOL, dynvec("NodeVec", table("Node", BYTES_VEC))))));

  private CkbTypes() {}
}
