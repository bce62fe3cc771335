"""The gRPC service: where protobuf, the rules engine and the event store meet.

`create_server(config)` (in `main`) builds a started server; `app.TarokApp` is the
transport-neutral application layer the servicer adapts.
"""
