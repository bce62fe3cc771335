"""Services are registered as generic handlers only (`server/transport/generic.py`), and still every
method of every service is served, intercepted and answered as generated code would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc
from tarok_proto.tarok.v1 import tournament_service_pb2 as ts
from tarok_proto.tarok.v1 import tournament_service_pb2_grpc as ts_grpc

from tarok_service.server.main import running
from tarok_service.server.transport.generic import generic_only

from .harness import ServerThread, error_of


class FakeServer:
    """Records what a generated `add_*Servicer_to_server` registers."""

    def __init__(self) -> None:
        self.generic: list[grpc.GenericRpcHandler[Any, Any]] = []
        self.registered: dict[str, Mapping[str, Any]] = {}

    def add_generic_rpc_handlers(
        self, handlers: tuple[grpc.GenericRpcHandler[Any, Any], ...]
    ) -> None:
        self.generic.extend(handlers)

    def add_registered_method_handlers(self, name: str, handlers: Mapping[str, Any]) -> None:
        self.registered[name] = handlers


class Details(grpc.HandlerCallDetails):
    def __init__(self, method: str) -> None:
        self.method = method
        self.invocation_metadata = ()


def test_generic_only_keeps_the_generic_handler_for_every_method() -> None:
    servicer = svc_grpc.TarokServiceServicer()  # type: ignore[abstract]
    fake = FakeServer()
    svc_grpc.add_TarokServiceServicer_to_server(servicer, generic_only(fake))  # type: ignore[arg-type]
    assert fake.registered == {} and len(fake.generic) == 1
    direct = FakeServer()  # what the generated code registers when given the server itself
    svc_grpc.add_TarokServiceServicer_to_server(servicer, direct)  # type: ignore[arg-type]
    methods = svc.DESCRIPTOR.services_by_name["TarokService"].methods
    assert set(direct.registered["tarok.v1.TarokService"]) == {m.name for m in methods}
    for method in methods:
        path = f"/tarok.v1.TarokService/{method.name}"
        handler = fake.generic[0].service(Details(path))
        assert handler is not None
        assert handler == direct.generic[0].service(Details(path))
    assert fake.generic[0].service(Details("/tarok.v1.TarokService/Nope")) is None


def test_every_service_is_served(server: ServerThread) -> None:
    assert server.stub.Ping(svc.PingRequest(payload=b"hi")).payload == b"hi"
    health = health_pb2_grpc.HealthStub(server.channel)
    status = health.Check(health_pb2.HealthCheckRequest(service="")).status
    assert status == health_pb2.HealthCheckResponse.SERVING
    tournaments = ts_grpc.TournamentServiceStub(server.channel)
    code, reason, _ = error_of(
        lambda: tournaments.GetTournament(ts.GetTournamentRequest(tournament_id="nope"))
    )
    assert code == grpc.StatusCode.NOT_FOUND and reason
    unknown = server.channel.unary_unary("/tarok.v1.TarokService/Nope", None, None)
    try:
        unknown(b"")
    except grpc.RpcError as err:
        assert isinstance(err, grpc.Call) and err.code() == grpc.StatusCode.UNIMPLEMENTED
    else:
        raise AssertionError("an unknown method was answered")


def test_every_service_is_observed_once(server: ServerThread) -> None:
    """The hook wraps every service's methods (health and reflection included) exactly once:
    each call is counted once in the RPC metrics."""
    requests = running(server.server).app.ctx.metrics.rpc_requests

    def counted(method: str) -> float:
        return float(requests.labels(method, "OK").value)

    reflection = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
    methods = ("/tarok.v1.TarokService/Ping", "/grpc.health.v1.Health/Check", reflection)
    before = {m: counted(m) for m in methods}  # the server may be shared with other tests
    server.stub.Ping(svc.PingRequest(payload=b"hi"))
    health_pb2_grpc.HealthStub(server.channel).Check(health_pb2.HealthCheckRequest(service=""))
    reflect = reflection_pb2_grpc.ServerReflectionStub(server.channel)
    ask = reflection_pb2.ServerReflectionRequest(list_services="")
    replies = list(reflect.ServerReflectionInfo(iter([ask])))  # the whole stream: status OK
    assert len(replies) == 1 and replies[0].list_services_response
    # Each call was counted before its status was sent, so before the client saw it end.
    assert {m: counted(m) - before[m] for m in methods} == dict.fromkeys(methods, 1)
