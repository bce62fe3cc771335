"""Operations: Prometheus metrics (store, RPC, process) and the server's logs."""
