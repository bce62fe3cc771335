"""`tarok serve` flags of the players feature."""

from __future__ import annotations

import argparse

import pytest

from tarok_service.server import cli
from tarok_service.server.config import OidcIssuer


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_parser(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_issuers_pair_with_their_audiences() -> None:
    args = parsed(
        "--oidc-issuer", "https://a.example/", "--oidc-audience", "x",
        "--oidc-issuer", "https://b.example", "--oidc-audience", "y",
        "--operator-key", "k", "--session-ttl", "60",
    )  # fmt: skip
    assert cli.oidc_issuers(args.oidc_issuer, args.oidc_audience) == (
        OidcIssuer("https://a.example/", "x"),
        OidcIssuer("https://b.example", "y"),
    )
    assert (args.operator_key, args.session_ttl, args.refresh_ttl) == ("k", 60, 30 * 24 * 3600)
    one = cli.oidc_issuers(["https://a.example", "https://b.example"], ["z"])
    assert [i.audience for i in one] == ["z", "z"]


@pytest.mark.parametrize(
    ("issuers", "audiences"),
    [(["https://a.example"], []), (["ftp://a.example"], ["x"]), ([], ["x"])],
)
def test_issuers_without_audience_or_url_stop_the_start(
    issuers: list[str], audiences: list[str]
) -> None:
    with pytest.raises(SystemExit):
        cli.oidc_issuers(issuers, audiences)
