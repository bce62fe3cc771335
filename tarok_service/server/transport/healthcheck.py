"""A gRPC health probe: `python -m tarok_service.server.transport.healthcheck [--addr host:port]`.

Exits 0 when the server answers SERVING, 1 otherwise (NOT_SERVING, unreachable, timeout).
For container HEALTHCHECKs and anything else without grpc_health_probe.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def check(addr: str, service: str = "", timeout: float = 3.0) -> str:
    """The serving status name ("SERVING", "NOT_SERVING", ...) or the gRPC error code name."""
    with grpc.insecure_channel(addr) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        except grpc.RpcError as error:
            code = error.code() if isinstance(error, grpc.Call) else None
            return code.name if code is not None else "UNREACHABLE"
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="healthcheck", description=__doc__)
    parser.add_argument("--addr", default="127.0.0.1:50051", help="host:port of the server")
    parser.add_argument("--service", default="", help='service name ("" = the whole server)')
    parser.add_argument("--timeout", type=float, default=3.0)
    args = parser.parse_args(argv)
    status = check(args.addr, args.service, args.timeout)
    print(status)
    return 0 if status == "SERVING" else 1


if __name__ == "__main__":
    sys.exit(main())
