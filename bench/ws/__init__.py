"""Live tables over websockets: sockets held, memory per socket, move latency and its costs."""
