/**
 * WebSocket as a byte stream under secio, as tentacle's {@code /ws} transport and the CKB light
 * client speak it: {@link io.secio.websocket.WebSocket#client}, {@link
 * io.secio.websocket.WebSocket#server} and, for one listener port serving TCP and WebSocket, {@link
 * io.secio.websocket.WebSocket#serverOrTcp}; their limits in {@link
 * io.secio.websocket.WebSocketConfig}; failures as {@link io.secio.websocket.WebSocketException}.
 */
package io.secio.websocket;
