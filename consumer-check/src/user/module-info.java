/** A user's echo server and client: secio-netty and Netty's native epoll, nothing else of ours. */
module com.example.echo {
  requires io.secio.netty;
  requires io.netty.transport.classes.epoll;
}
