"""Generate docs/api.md, the API reference, from the comments in protos/ (run by protogen).

Each RPC's leading comment is its description; lines of the form
`Error: CODE REASON - when` (continued on following comment lines) become its error table.
Examples are built from the request message: fields with a sample value below appear in a
`buf curl` command for the server's gRPC port.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from google.protobuf import descriptor_pb2 as d

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "api.md"
PACKAGE = "tarok.v1"

# Sample values for request fields, by field name (fields not listed are left out). Every
# example runs as written against a server in tests/docs/test_api_docs.py.
_BOTS = [{"seat": seat, "bot": "heuristic"} for seat in (1, 2, 3)]
_ENTRANTS = [{"name": "remote"}] + [{"name": f"bot{i}", "bot": "random"} for i in (1, 2, 3)]
SAMPLES: dict[str, object] = {
    "variant": "slovenian",
    "players": 4,
    "hands": 1,
    "bots": _BOTS,
    "table_id": "$TABLE",
    "name": "ana",
    "token": "$TOKEN",
    "move_id": "pass",
    "with_views": True,
    "format": "LOG_FORMAT_JSON",
    "filter": "state = open",
    "tournament_id": "$TOURNAMENT",
    "organiser_key": "$ORGANISER_KEY",
    "organiser_token": "$ORGANISER_TOKEN",
    "tokens": ["$ENTRANT"],
    "paused": True,
    "reason": "a demonstration",
    "payload": "aGk=",
    "device_secret": "$DEVICE_SECRET",
    "refresh_token": "$REFRESH",
    "id_token": "$ID_TOKEN",
    "token_id": "$API_TOKEN_ID",
    "operator_key": "$OPERATOR_KEY",
    "player_id": "$PLAYER",
    "scopes": ["play"],
}

# Samples of one method's fields (a name that means something else elsewhere).
METHOD_SAMPLES: dict[str, dict[str, object]] = {
    "CreateTournament": {
        "spec": {"variant": "slovenian", "players": 4, "entrants": _ENTRANTS, "deals": 1}
    },
    "RejoinTable": {"table_id": None},  # with a token; by identity: docs/identity.md
    "SignInGuest": {"display_name": "Ana"},
    "CreateApiToken": {"name": "my-bot"},
    "ListAuditEvents": {"page_size": 10},
    "FindMatch": {"bots_after": "1s"},
    "ListHistory": {"page_size": 10},
    "ListLeaderboard": {"page_size": 10},
}

# Methods whose example signs in: `authorization: Bearer $SESSION` (docs/identity.md).
_SIGNED_IN = "`SESSION`: the `session.sessionToken` that PlayerService.SignInGuest answered."
SIGNED_IN = frozenset(
    {"GetMe", "LinkIdentity", "CreateApiToken", "ListApiTokens", "RevokeApiToken", "ListMyTables"}
    | {"FindMatch", "ListHistory", "GetProfile", "OpenPlayedTable"}
)

# Where an example's variables come from (by method; the rest need none).
_TABLE = "`TABLE`: the `tableId` that CreateTable answered."
_TOKEN = "`TOKEN`: the `token` that JoinTable answered."
_TOURNAMENT = (
    "`TOURNAMENT`, `ORGANISER_TOKEN`: the `tournamentId` and `organiserToken` that "
    "CreateTournament answered."
)
_STREAM = " A stream: it runs until the table (tournament) ends; Ctrl-C stops it."
NOTES: dict[str, str] = {
    "JoinTable": _TABLE,
    "GetTableView": _TOKEN,
    "WatchTable": _TOKEN + _STREAM,
    "GetTableLog": _TOKEN,
    "SubmitMove": _TOKEN + " Send it when it is that seat's turn (GetTableView: `hand.turn`): "
    "`pass` is legal for it in the opening auction.",
    "LeaveTable": "`TOKEN`: a seat at a table that is still seating (say, one created without "
    "`bots` and joined once).",
    "RejoinTable": "`TOKEN`: the seat given up with LeaveTable, or handed to a bot.",
    "HandSeatToBot": _TOKEN + " During play; the bot plays the seat's turns from then on.",
    "Rematch": "`TOKEN`: a seat at a finished match (for one, hand your seat to a bot and "
    "wait for the end).",
    "CreateTournament": "`ORGANISER_KEY`: the server's organiser key; `make run` keeps it in "
    "`.tarok-organiser-key` (`ORGANISER_KEY=$(cat .tarok-organiser-key)`). The first "
    "entrant is a remote bot: its token is `entrantTokens[0].token`.",
    "GetTournament": _TOURNAMENT,
    "WatchTournament": _TOURNAMENT + _STREAM,
    "ExportTournament": _TOURNAMENT,
    "StreamMyTurns": "`ENTRANT`: the remote entrant's token, `entrantTokens[0].token` of "
    "CreateTournament's answer." + _STREAM.replace(" (tournament)", ""),
    "PauseTournament": _TOURNAMENT,
    "CancelTournament": _TOURNAMENT,
    "SignInGuest": "`DEVICE_SECRET`: a random secret the device keeps (22 to 128 characters, "
    "say `DEVICE_SECRET=$(openssl rand -hex 16)`); the same secret signs in as the same guest.",
    "SignIn": "`ID_TOKEN`: a token of an identity provider the server is configured with "
    "(`--oidc-issuer`, `--oidc-audience`; docs/identity.md).",
    "RefreshSession": "`REFRESH`: the `session.refreshToken` of a sign-in.",
    "GetMe": _SIGNED_IN,
    "LinkIdentity": _SIGNED_IN + " `ID_TOKEN`: the identity provider's token to link.",
    "CreateApiToken": _SIGNED_IN + " The answer's `token` is shown only once.",
    "ListApiTokens": _SIGNED_IN,
    "RevokeApiToken": _SIGNED_IN + " `API_TOKEN_ID`: `info.tokenId` of CreateApiToken.",
    "ListMyTables": _SIGNED_IN,
    "SuspendPlayer": "`OPERATOR_KEY`: the server's operator key (`--operator-key`); `PLAYER`: "
    "a `player.playerId`.",
    "CloseTable": "`OPERATOR_KEY`: the server's operator key (`--operator-key`); `TABLE`: the "
    "table to end.",
    "ListAuditEvents": "`OPERATOR_KEY`: the server's operator key (`--operator-key`).",
    "FindMatch": _SIGNED_IN + " A stream: progress reports (`waiting`), then the seat (`found`: "
    "table id and seat token); Ctrl-C leaves the queue (docs/players.md).",
    "ListHistory": _SIGNED_IN,
    "GetProfile": _SIGNED_IN,
    "OpenPlayedTable": _SIGNED_IN + " `TABLE`: a finished table in the player's history "
    "(ListHistory: `tables[].tableId`).",
}

# Paths inside descriptors (see descriptor.proto): file.message_type=4, enum_type=5,
# service=6; message.field=2, nested_type=3, enum_type=4; enum.value=2; service.method=2.
_MESSAGE, _ENUM, _SERVICE = 4, 5, 6
_FIELD, _NESTED, _NESTED_ENUM = 2, 3, 4
_VALUE, _METHOD = 2, 2

_SCALARS = {
    d.FieldDescriptorProto.TYPE_DOUBLE: "double",
    d.FieldDescriptorProto.TYPE_FLOAT: "float",
    d.FieldDescriptorProto.TYPE_INT64: "int64",
    d.FieldDescriptorProto.TYPE_UINT64: "uint64",
    d.FieldDescriptorProto.TYPE_INT32: "int32",
    d.FieldDescriptorProto.TYPE_UINT32: "uint32",
    d.FieldDescriptorProto.TYPE_BOOL: "bool",
    d.FieldDescriptorProto.TYPE_STRING: "string",
    d.FieldDescriptorProto.TYPE_BYTES: "bytes",
}


@dataclass
class Error:
    code: str
    reason: str
    when: str


@dataclass
class Doc:
    """A comment split into its description and its `Error:` lines."""

    text: str = ""
    errors: list[Error] = field(default_factory=list)


def _split(comment: str) -> Doc:
    doc, lines = Doc(), []
    for raw in comment.strip("\n").splitlines():
        line = raw.strip()
        if line.startswith("Error:"):
            head, _, when = line.removeprefix("Error:").partition(" - ")
            code, _, reason = head.strip().partition(" ")
            doc.errors.append(Error(code, reason.strip(), when.strip()))
        elif doc.errors and line:
            doc.errors[-1].when += " " + line
        else:
            lines.append(line)
    doc.text = "\n".join(lines).strip()
    return doc


def descriptors() -> d.FileDescriptorSet:
    """The tarok/v1 files with their comments, compiled by protoc."""
    from grpc_tools import protoc  # type: ignore[import-untyped]  # only the generator needs it

    include = str(Path(protoc.__file__).resolve().parent / "_proto")
    protos = sorted(str(p) for p in (ROOT / "protos" / "tarok" / "v1").glob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.binpb"
        args = ["protoc", f"-I{ROOT / 'protos'}", f"-I{include}", "--include_source_info"]
        if protoc.main([*args, f"--descriptor_set_out={out}", *protos]) != 0:
            raise SystemExit("protoc failed")
        return d.FileDescriptorSet.FromString(out.read_bytes())


class _Comments:
    def __init__(self, file: d.FileDescriptorProto) -> None:
        self.by_path = {
            tuple(loc.path): loc.leading_comments for loc in file.source_code_info.location
        }

    def __call__(self, *path: int) -> str:
        return self.by_path.get(path, "")


def _anchor(name: str) -> str:
    return name.lower().replace(".", "")


def _type(f: d.FieldDescriptorProto, maps: dict[str, tuple[str, str]]) -> str:
    if f.type_name:
        name = f.type_name.removeprefix(".")
        if name in maps:
            key, value = maps[name]
            return f"`map<{key}, {value}>`"
        short = name.removeprefix(PACKAGE + ".")
        return f"[{short}](#{_anchor(short)})" if name.startswith(PACKAGE) else short
    return _SCALARS.get(f.type, "?")


def _label(
    f: d.FieldDescriptorProto, msg: d.DescriptorProto, maps: dict[str, tuple[str, str]]
) -> str:
    kind = _type(f, maps)
    if kind.startswith("`map<"):
        return kind
    if f.label == d.FieldDescriptorProto.LABEL_REPEATED:
        return f"repeated {kind}"
    if f.proto3_optional:
        return f"optional {kind}"
    if f.HasField("oneof_index"):
        return f"{kind} (oneof `{msg.oneof_decl[f.oneof_index].name}`)"
    return kind


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _walk(
    prefix: str, messages: list[d.DescriptorProto], path: tuple[int, ...]
) -> Iterator[tuple[str, d.DescriptorProto, tuple[int, ...]]]:
    for i, msg in enumerate(messages):
        name = f"{prefix}{msg.name}"
        yield name, msg, (*path, i)
        yield from _walk(f"{name}.", list(msg.nested_type), (*path, i, _NESTED))


def _maps(files: list[d.FileDescriptorProto]) -> dict[str, tuple[str, str]]:
    """Full names of map entry messages -> (key type, value type)."""
    found: dict[str, tuple[str, str]] = {}
    for file in files:
        for name, msg, _ in _walk("", list(file.message_type), (_MESSAGE,)):
            if msg.options.map_entry:
                key, value = msg.field
                found[f"{file.package}.{name}"] = (_type(key, {}), _type(value, {}))
    return found


def _example(request: d.DescriptorProto, method: str) -> dict[str, object]:
    samples = {**SAMPLES, **METHOD_SAMPLES.get(method, {})}
    return {
        _json_name(f.name): samples[f.name]
        for f in request.field
        if samples.get(f.name) is not None
    }


def _json_name(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _service(
    file: d.FileDescriptorProto,
    index: int,
    comments: _Comments,
    messages: dict[str, d.DescriptorProto],
) -> list[str]:
    service = file.service[index]
    out = [f"## {service.name}", "", _split(comments(_SERVICE, index)).text, ""]
    for m, method in enumerate(service.method):
        doc = _split(comments(_SERVICE, index, _METHOD, m))
        request = method.input_type.removeprefix(f".{PACKAGE}.")
        response = method.output_type.removeprefix(f".{PACKAGE}.")
        stream = "stream of " if method.server_streaming else ""
        out += [
            f"### {service.name}.{method.name}",
            "",
            doc.text or "(undocumented)",
            "",
            f"- Request: [{request}](#{_anchor(request)})",
            f"- Response: {stream}[{response}](#{_anchor(response)})",
            "",
        ]
        if doc.errors:
            out += ["| Code | Reason | When |", "|---|---|---|"]
            out += [f"| `{x.code}` | `{x.reason}` | {_cell(x.when)} |" for x in doc.errors]
            out.append("")
        else:
            out += ["Errors: only those every call may return (see above).", ""]
        data = json.dumps(_example(messages[request], method.name))
        data = f'"{data.replace(chr(34), chr(92) + chr(34))}"' if "$" in data else f"'{data}'"
        note = NOTES.get(method.name)
        out += [
            "Example (the gRPC port of `make run`" + (f"). {note}" if note else "):"),
            "",
            "```sh",
            ".venv/bin/buf curl --protocol grpc --http2-prior-knowledge --schema protos \\",
            *(['    -H "authorization: Bearer $SESSION" \\'] if method.name in SIGNED_IN else []),
            f"    --data {data} \\",
            f"    http://localhost:50051/{PACKAGE}.{service.name}/{method.name}",
            "```",
            "",
        ]
    return out


def _message(
    name: str,
    msg: d.DescriptorProto,
    path: tuple[int, ...],
    comments: _Comments,
    maps: dict[str, tuple[str, str]],
) -> list[str]:
    out = [f"### {name}", ""]
    text = _split(comments(*path)).text
    if text:
        out += [text, ""]
    if not msg.field:
        return [*out, "(no fields)", ""]
    out += ["| Field | Type | Description |", "|---|---|---|"]
    for i, f in enumerate(msg.field):
        desc = _cell(_split(comments(*path, _FIELD, i)).text)
        out.append(f"| `{f.name}` | {_label(f, msg, maps)} | {desc} |")
    return [*out, ""]


def _enum(
    name: str, enum: d.EnumDescriptorProto, path: tuple[int, ...], comments: _Comments
) -> list[str]:
    out = [
        f"### {name}",
        "",
        _split(comments(*path)).text,
        "",
        "| Value | Number | Description |",
        "|---|---|---|",
    ]
    for i, value in enumerate(enum.value):
        desc = _cell(_split(comments(*path, _VALUE, i)).text)
        out.append(f"| `{value.name}` | {value.number} | {desc} |")
    return [*out, ""]


HEADER = """\
# API reference

<!-- Generated from the comments in protos/ by `make proto`; do not edit by hand. -->

The server speaks gRPC on its gRPC port (50051 by default). Every message below is in the
`tarok.v1` package. int64 fields are numbers in protobuf binary and strings in JSON
(TypeScript: `bigint`).

**Errors.** A refused call ends with a gRPC status code and a `google.rpc.ErrorInfo` detail
(domain `tarok.v1`) whose `reason` is stable: branch on the reason, not on the message.
`metadata` adds facts (the offending `field`, the seat whose `turn` it is, the
`current_version`). Besides the errors listed for each call, any call may return
`UNAVAILABLE STORE_UNAVAILABLE` (retry after the RetryInfo delay, with the same request id)
and, for a server fault, `INTERNAL INTERNAL_ERROR` (`INTERNAL ENGINE_BUG` when the rules engine
meets a state or rule set that cannot arise: a bug, never a rule reason). Calls that change a
table take a `request_id`: repeating a request with the same id returns the first answer and writes
nothing, so any failed call can be retried safely.

**Examples** use `buf curl`, which the virtualenv installs (`make install`), from the
repository root (it reads the schema from `protos/`), against `make run`'s gRPC port. Each
example says where the shell variables it names (`TABLE=...`) come from: the answers of
earlier calls. `tests/docs/test_api_docs.py` runs every example as written.
"""


def render() -> str:
    files = [f for f in descriptors().file if f.package == PACKAGE]
    maps = _maps(files)
    messages: dict[str, d.DescriptorProto] = {}
    for file in files:
        for name, msg, _ in _walk("", list(file.message_type), (_MESSAGE,)):
            messages[name] = msg
    out = [HEADER]
    toc = ["## Contents", ""]
    for file in files:
        for service in file.service:
            toc.append(f"- [{service.name}](#{_anchor(service.name)})")
            toc += [f"  - [{m.name}](#{_anchor(service.name + m.name)})" for m in service.method]
    toc += ["- [Messages](#messages)", "- [Enums](#enums)", ""]
    out += toc
    for file in files:
        comments = _Comments(file)
        for index in range(len(file.service)):
            out += _service(file, index, comments, messages)
    out += ["## Messages", ""]
    for file in files:
        comments = _Comments(file)
        for name, msg, path in _walk("", list(file.message_type), (_MESSAGE,)):
            if not msg.options.map_entry:
                out += _message(name, msg, path, comments, maps)
    out += ["## Enums", ""]
    for file in files:
        comments = _Comments(file)
        for i, enum in enumerate(file.enum_type):
            out += _enum(enum.name, enum, (_ENUM, i), comments)
        for name, msg, path in _walk("", list(file.message_type), (_MESSAGE,)):
            for j, enum in enumerate(msg.enum_type):
                out += _enum(f"{name}.{enum.name}", enum, (*path, _NESTED_ENUM, j), comments)
    return "\n".join(out).rstrip() + "\n"


def stale() -> bool:
    return not TARGET.exists() or TARGET.read_text(encoding="utf-8") != render()


def write() -> None:
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(render(), encoding="utf-8")
