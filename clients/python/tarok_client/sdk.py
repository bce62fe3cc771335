"""A small synchronous SDK over the generated stubs: connect, create, join, play, watch.

from tarok_client import connect

with connect("localhost:50051") as client:
    table = client.create("slovenian", players=4, hands=1)
    seat = client.join(table, name="me")
    for view in seat.my_turns():
        seat.submit(view.hand.legal_moves[0].id)

Signed in (docs/identity.md): `connect(target, bearer=TOKEN)` sends `authorization: Bearer TOKEN`
on every call (an API token, an identity provider's token or a session token), or
`client.sign_in_guest(device_secret)` signs in and keeps the session's token.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import grpc
from google.protobuf import json_format
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status
from tarok_proto.tarok.v1 import cards_pb2, events_pb2, variants_pb2, views_pb2
from tarok_proto.tarok.v1 import player_service_pb2 as ps
from tarok_proto.tarok.v1 import player_service_pb2_grpc as ps_grpc
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc
from tarok_proto.tarok.v1 import tarok_service_pb2_grpc as svc_grpc

FINISHED = views_pb2.TABLE_STATUS_FINISHED
PLAYING = views_pb2.TABLE_STATUS_PLAYING
PRIVATE = svc.TABLE_VISIBILITY_PRIVATE


class TarokError(Exception):
    """A failed call: gRPC status code, stable reason (google.rpc.ErrorInfo) and message."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, metadata: dict[str, str]):
        super().__init__(f"{code.name} {reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = metadata

    @staticmethod
    def from_rpc(error: grpc.RpcError) -> TarokError:
        code = error.code() if isinstance(error, grpc.Call) else grpc.StatusCode.UNKNOWN
        details = error.details() if isinstance(error, grpc.Call) else str(error)
        reason, metadata = "", dict[str, str]()
        status = rpc_status.from_call(error) if isinstance(error, grpc.Call) else None
        details_list: list[Any] = list(status.details) if status is not None else []
        for detail in details_list:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                reason, metadata = info.reason, dict(info.metadata)
        return TarokError(code, reason, details or "", metadata)


class _Calls:
    """Runs stub calls (with the client's bearer token, if any), turning grpc.RpcError into
    TarokError."""

    def __init__(self, stub: Any, timeout: float, client: Client | None = None) -> None:
        self.stub = stub
        self.timeout = timeout
        self.client = client

    def __call__(self, method: str, request: Any, signed: bool = True) -> Any:
        """`signed`: with the client's bearer token (sign-ins go without: an expired session
        in the header would fail even the RefreshSession that replaces it)."""
        metadata = self.client.metadata() if self.client is not None and signed else ()
        try:
            return getattr(self.stub, method)(request, timeout=self.timeout, metadata=metadata)
        except grpc.RpcError as error:
            raise TarokError.from_rpc(error) from None


class Client:
    """A connection to a tarok server."""

    def __init__(
        self, target: str = "localhost:50051", timeout: float = 30.0, bearer: str | None = None
    ) -> None:
        self.target = target
        self.channel = grpc.insecure_channel(target)
        self.stub = svc_grpc.TarokServiceStub(self.channel)
        self.call = _Calls(self.stub, timeout, self)
        self.players = _Calls(ps_grpc.PlayerServiceStub(self.channel), timeout, self)
        # Sent as `authorization: Bearer <bearer>` on every call (None: anonymous).
        self.bearer = bearer
        self.session: ps.Session | None = None  # the last sign-in's session, if any

    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The metadata every call carries: the bearer token, when there is one."""
        return (("authorization", f"Bearer {self.bearer}"),) if self.bearer else ()

    # -- players (docs/identity.md) ------------------------------------------------------

    def sign_in_guest(self, device_secret: str, display_name: str = "") -> ps.Session:
        """Sign in as the guest `device_secret` names (created on first use); the session's
        token is this client's bearer token from now on."""
        request = ps.SignInGuestRequest(device_secret=device_secret, display_name=display_name)
        response: ps.SignInGuestResponse = self.players("SignInGuest", request, signed=False)
        return self._use(response.session)

    def sign_in(self, id_token: str, display_name: str = "") -> ps.Session:
        """Sign in with an identity provider's token; its session becomes the bearer."""
        request = ps.SignInRequest(id_token=id_token, display_name=display_name)
        response: ps.SignInResponse = self.players("SignIn", request, signed=False)
        return self._use(response.session)

    def refresh(self) -> ps.Session:
        """A new session from the last one's refresh token (before it expires)."""
        if self.session is None:
            raise ValueError("sign in first")
        request = ps.RefreshSessionRequest(refresh_token=self.session.refresh_token)
        response: ps.RefreshSessionResponse = self.players("RefreshSession", request, signed=False)
        return self._use(response.session)

    def _use(self, session: ps.Session) -> ps.Session:
        self.session, self.bearer = session, session.session_token
        return session

    def me(self) -> ps.Player:
        response: ps.GetMeResponse = self.players("GetMe", ps.GetMeRequest())
        return response.player

    def my_tables(self) -> list[ps.MyTable]:
        """The signed-in player's unfinished tables (and its seat at each)."""
        response: ps.ListMyTablesResponse = self.players("ListMyTables", ps.ListMyTablesRequest())
        return list(response.tables)

    def rejoin(self, table_id: str) -> Seat:
        """The signed-in player's seat at `table_id`, from this device (a fresh token)."""
        request = svc.RejoinTableRequest(table_id=table_id)
        response: svc.RejoinTableResponse = self.call("RejoinTable", request)
        return Seat(self, response.table_id, response.token, response.seat)

    def create_api_token(
        self, name: str, scopes: Sequence[str] = ("play",)
    ) -> ps.CreateApiTokenResponse:
        """A long-lived API token for a bot (its `token` is shown only here)."""
        request = ps.CreateApiTokenRequest(name=name, scopes=list(scopes))
        response: ps.CreateApiTokenResponse = self.players("CreateApiToken", request)
        return response

    def revoke_api_token(self, token_id: str) -> None:
        self.players("RevokeApiToken", ps.RevokeApiTokenRequest(token_id=token_id))

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until the server answers (raises grpc.FutureTimeoutError)."""
        grpc.channel_ready_future(self.channel).result(timeout=timeout)

    def ping(self, payload: bytes = b"") -> bytes:
        response: svc.PingResponse = self.call("Ping", svc.PingRequest(payload=payload))
        return response.payload

    def variants(self) -> list[variants_pb2.VariantInfo]:
        response: svc.ListVariantsResponse = self.call("ListVariants", svc.ListVariantsRequest())
        return list(response.variants)

    def create(
        self,
        variant: str = "slovenian",
        players: int = 4,
        hands: int = 1,
        options: Mapping[str, object] | None = None,
        preset_deals: Sequence[Sequence[str]] = (),
        bots: Mapping[int, str] | None = None,
        display_name: str = "",
        private: bool = False,
    ) -> str:
        """Create a table; returns its id.

        `bots`: seats the server plays itself, seat -> built-in bot ("random", "heuristic",
        "pimc"), e.g. `{1: "heuristic", 2: "heuristic", 3: "heuristic"}`. `display_name`:
        its name in the lobby; `private`: not listed in the lobby (joined by id only)."""
        request = svc.CreateTableRequest(
            variant=variant,
            players=players,
            hands=hands,
            options={k: _text(v) for k, v in (options or {}).items()},
            preset_deals=[cards_pb2.Deal(cards=list(d)) for d in preset_deals],
            bots=[svc.BotSeat(seat=s, bot=b) for s, b in sorted((bots or {}).items())],
            display_name=display_name,
            visibility=PRIVATE if private else svc.TABLE_VISIBILITY_UNSPECIFIED,
        )
        response: svc.CreateTableResponse = self.call("CreateTable", request)
        return response.table_id

    def join(self, table_id: str, name: str = "", seat: int | None = None) -> Seat:
        """Take a seat (the first free one unless `seat` is given)."""
        request = svc.JoinTableRequest(table_id=table_id, name=name, seat=seat)
        return self._seat(request)

    def spectate(self, table_id: str) -> Seat:
        """A spectator's handle: public information only, no moves."""
        return self._seat(svc.JoinTableRequest(table_id=table_id, spectator=True))

    def _seat(self, request: svc.JoinTableRequest) -> Seat:
        response: svc.JoinTableResponse = self.call("JoinTable", request)
        seat = response.seat if response.HasField("seat") else None
        return Seat(self, response.table_id, response.token, seat)


class Seat:
    """One seat (or a spectator) at a table, holding its token."""

    def __init__(self, client: Client, table_id: str, token: str, seat: int | None) -> None:
        self.client = client
        self.table_id = table_id
        self.token = token
        self.seat = seat

    def view(self) -> views_pb2.TableView:
        request = svc.GetTableViewRequest(token=self.token)
        response: svc.GetTableViewResponse = self.client.call("GetTableView", request)
        return response.view

    def submit(
        self, move_id: str, expected_version: int | None = None, request_id: str | None = None
    ) -> svc.SubmitMoveResponse:
        """Make a move by its id (safe to retry: a request id is always sent)."""
        request = svc.SubmitMoveRequest(
            token=self.token,
            move_id=move_id,
            expected_version=expected_version,
            request_id=request_id or secrets.token_urlsafe(16),
        )
        response: svc.SubmitMoveResponse = self.client.call("SubmitMove", request)
        return response

    def watch(
        self, from_version: int = 0, with_views: bool = False
    ) -> Iterator[svc.WatchTableResponse]:
        """A full view, then the events after `from_version`, then live events (and heartbeats)."""
        request = svc.WatchTableRequest(
            token=self.token, from_version=from_version, with_views=with_views
        )
        try:
            yield from self.client.stub.WatchTable(request, metadata=self.client.metadata())
        except grpc.RpcError as error:
            raise TarokError.from_rpc(error) from None

    def my_turns(self) -> Iterator[views_pb2.TableView]:
        """Each view in which it is this seat's turn, until the table finishes."""
        last = -1
        for item in self.watch(with_views=True):
            if item.WhichOneof("item") != "view":
                continue
            view = item.view
            if view.status == FINISHED:
                return
            mine = view.status == PLAYING and view.hand.HasField("turn")
            if mine and view.hand.turn == self.seat and view.version > last:
                last = view.version
                yield view

    def log(self) -> events_pb2.TableLog:
        """The table's log as this seat may see it (complete once the table has finished),
        every page of it."""
        whole = events_pb2.TableLog()
        token = ""
        while True:
            request = svc.GetTableLogRequest(
                token=self.token, format=svc.LOG_FORMAT_PROTO, page_token=token
            )
            response: svc.GetTableLogResponse = self.client.call("GetTableLog", request)
            events = list(whole.events) + list(response.log.events)
            whole.CopyFrom(response.log)
            del whole.events[:]
            whole.events.extend(events)
            token = response.next_page_token
            if not token:
                return whole

    def log_json(self) -> str:
        """The whole log (every page) as protobuf JSON text."""
        return json_format.MessageToJson(self.log())


def connect(
    target: str = "localhost:50051", timeout: float = 30.0, bearer: str | None = None
) -> Client:
    """A client for the server at `target` ("host:port"); `bearer`: a token sent as
    `authorization: Bearer` on every call (docs/identity.md)."""
    return Client(target, timeout, bearer)


def to_json(message: Any) -> str:
    """Any message as canonical protobuf JSON."""
    return json_format.MessageToJson(message)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
