"""The catalogues: every id of every rule set worded in every locale, in the players' terms."""

from __future__ import annotations

import gettext
import random
from typing import Any

import pytest

from tarok_service.engine.moves import Move
from tarok_service.engine.state import HandState
from tarok_service.engine.variant import Variant
from tarok_service.server.present import i18n, render
from tarok_service.server.present.i18n import LOCALES, Labels, negotiate
from tarok_service.variants import vocabulary as v
from tarok_service.variants.registry import all_variants

VARIANTS = sorted(all_variants(), key=lambda x: x.id)
HOME = {
    "slovenian": "sl",
    "double_tarok": "sl",
    "zwanzigerrufen": "de",
    "koenigrufen": "de",
    "taroky": "cs",
    "tarocco_bolognese": "it",
    "french_tarot": "fr",
}
# Words the home language shares with English (the English texts use the players' terms).
SAME_AS_ENGLISH = {
    ("slovenian", "klop"),
    ("slovenian", "valat"),
    ("slovenian", "kontra"),
    ("slovenian", "re"),
    ("slovenian", "sub"),
    ("slovenian", "mort"),
    ("slovenian", "trula"),
    ("slovenian", "pagat_ultimo"),
    ("slovenian", "radelc"),
    ("slovenian", "talon"),
    ("double_tarok", "klop"),
    ("double_tarok", "valat"),
    ("double_tarok", "kontra"),
    ("double_tarok", "re"),
    ("double_tarok", "sub"),
    ("double_tarok", "mort"),
    ("double_tarok", "trula"),
    ("double_tarok", "pagat_ultimo"),
    ("double_tarok", "radelc"),
    ("double_tarok", "talon"),
    ("zwanzigerrufen", "solo"),
    ("zwanzigerrufen", "absolut"),
    ("zwanzigerrufen", "pagat"),
    ("zwanzigerrufen", "valat"),
    ("zwanzigerrufen", "trull"),
    ("zwanzigerrufen", "mondfang"),
    ("zwanzigerrufen", "kontra"),
    ("zwanzigerrufen", "rekontra"),
    ("zwanzigerrufen", "subkontra"),
    ("taroky", "varsava"),
    ("taroky", "sup"),
    ("taroky", "tuti"),
    ("taroky", "pagat"),
    ("taroky", "valat"),
    ("taroky", "talon"),
    ("tarocco_bolognese", "grande"),
    ("koenigrufen", "trischaken"),
    ("koenigrufen", "piccolo"),
    ("koenigrufen", "zwiccolo"),
    ("koenigrufen", "trula"),
    ("koenigrufen", "pagat_ultimo"),
    ("koenigrufen", "valat"),
    ("koenigrufen", "uhu"),
    ("koenigrufen", "kakadu"),
    ("koenigrufen", "quapil"),
    ("koenigrufen", "mond"),
    ("koenigrufen", "pagat"),
    ("french_tarot", "garde"),
    ("french_tarot", "petit_au_bout"),
    ("french_tarot", "chelem"),
    ("french_tarot", "poignee"),
    ("french_tarot", "excuse"),
    ("french_tarot", "petit"),
    ("french_tarot", "bout"),
    ("french_tarot", "chien"),
    ("french_tarot", "ecart"),
}
# The kinds a rule set owns (its own words, under its message context).
OWN_KINDS = (v.CONTRACT, v.BONUS, v.KONTRA, v.LINE, v.DECLARATION, v.COMBINATION, v.CHOICE, v.WORD)


def keys(variant: Variant[Any]) -> list[tuple[str, str]]:
    """(kind, id) of every vocabulary entry of a rule set, reasons included."""
    out = []
    for kind, ids in {**v.vocabulary(variant), v.REASON: render.reasons()}.items():
        for ident in ids:
            base = ident.removesuffix("_against")
            out.append((render.line_kind(variant.id, base) if kind == v.LINE else kind, base))
    return out


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda x: x.id)
def test_every_id_has_a_label_in_every_locale(variant: Variant[Any], locale: str) -> None:
    words = Labels(locale, variant.id)
    missing = [
        f"{kind}.{ident}" for kind, ident in keys(variant) if not words.has(f"{kind}.{ident}")
    ]
    assert missing == []


def low_bidder(variant: Variant[Any], state: HandState, rng: random.Random) -> Move:
    """The first bidder bids the lowest game, everyone else passes (so that hands reach the
    talon, calls and announcements); random moves after the bidding."""
    legal = variant.legal_moves(state)
    bids = [m for m in legal if m.kind == "bid" and m.value != "klop"]
    passes = [m for m in legal if m.kind == "pass"]
    facts = variant.view(state, None).facts
    if bids and not any(f.kind == "bid" and f.value != "pass" for f in facts):
        return bids[0]
    if bids and passes:
        return passes[0]
    return rng.choice(legal)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda x: x.id)
def test_cards_moves_and_templates_render_without_fallback(
    variant: Variant[Any], locale: str
) -> None:
    """Every card of every pack, and every label of random hands, needs no English fallback."""
    missed: list[tuple[str, str]] = []
    words = Labels(locale, variant.id, lambda loc, kind: missed.append((loc, kind)))
    for players in variant.player_counts:
        deck = variant.deck(variant.make_rules(players))
        labels = [render.card_text(words, deck, c) for c in deck.cards]
        assert all(labels) and len(set(labels)) == len(labels)
    rules = variant.make_rules(variant.player_counts[0])
    deck = variant.deck(rules)
    rng = random.Random(7)
    for _ in range(12):
        order = list(deck.cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, 0)
        while not state.finished:
            view = variant.view(state, state.turn)
            for move in view.legal:
                assert render.move_label(words, variant, deck, state, view.facts, move)
            for fact in view.facts:
                assert render.fact_value(variant, deck, words, fact).label or not fact.value
            state = variant.apply(state, low_bidder(variant, state, rng))
        result = variant.result(state)
        assert result is not None
        for line in result.lines:
            ident, params = v.line_key(line.item)
            assert render.line_label(words, ident, params)
    assert missed == []


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda x: x.id)
def test_own_words_differ_from_english_in_the_home_language(variant: Variant[Any]) -> None:
    if HOME[variant.id] not in LOCALES:
        pytest.skip(f"no {HOME[variant.id]} catalogue yet")
    home = Labels(HOME[variant.id], variant.id)
    english = Labels("en", variant.id)
    same = [
        (kind, ident)
        for kind, ident in keys(variant)
        if kind in OWN_KINDS
        and (variant.id, ident) not in SAME_AS_ENGLISH
        and home.term(kind, ident) == english.term(kind, ident)
    ]
    assert same == []


def test_the_terms_players_use() -> None:
    def word(locale: str, context: str, kind: str, ident: str) -> str:
        return Labels(locale, context).term(kind, ident)

    assert word("sl", "slovenian", "contract", "beggar") == "Berač"
    assert word("sl", "slovenian", "contract", "solo_without") == "Solo brez"
    assert word("sl", "slovenian", "bonus", "kings") == "Kralji"
    assert word("sl", "double_tarok", "contract", "six") == "Šestica"
    assert word("de", "zwanzigerrufen", "contract", "colour_solo") == "Farbensolo"
    assert word("de", "zwanzigerrufen", "bonus", "king_trull") == "Königstrull"
    assert word("de", "", "move", "pass") == "Weiter"
    assert word("cs", "taroky", "contract", "second") == "Druhá povinnost"
    assert word("cs", "taroky", "kontra", "reflek") == "Reflek"
    assert word("cs", "taroky", "move", "pass_bidding") == "Dobrá"
    assert word("it", "tarocco_bolognese", "combination", "kings") == "Cricca di re"
    assert word("it", "", "card", "Matto") == "Matto"
    assert word("fr", "french_tarot", "contract", "prise") == "Petite"
    assert word("fr", "french_tarot", "contract", "garde_contre") == "Garde contre le chien"
    assert word("fr", "french_tarot", "bonus", "poignee_double") == "Poignée double"
    assert word("fr", "", "card", "EX") == "Excuse"


def test_plural_forms_follow_each_language() -> None:
    def points(locale: str, n: int) -> str:
        return Labels(locale).count("points", n)

    assert [points("sl", n) for n in (1, 2, 3, 5, 101)] == [
        "1 točka",
        "2 točki",
        "3 točke",
        "5 točk",
        "101 točka",
    ]
    assert [points("cs", n) for n in (1, 3, 5)] == ["1 bod", "3 body", "5 bodů"]
    assert [points("en", n) for n in (1, 2)] == ["1 point", "2 points"]
    assert points("de", 2) == "2 Punkte"
    assert [points("fr", n) for n in (0, 1, 2)] == ["0 point", "1 point", "2 points"]


def test_negotiation_picks_the_best_supported_language() -> None:
    assert negotiate("") is None
    assert negotiate("sl") == "sl"
    assert negotiate("de-AT,de;q=0.9,en;q=0.5") == "de"
    assert negotiate("es-ES, it;q=0.8, en;q=0.9") == "en"
    assert negotiate("es, cs;q=0.2") == "cs"
    assert negotiate("es") == "en"
    assert negotiate("fr-BE, de;q=0.5") == "fr"
    assert negotiate("x" * 10_000) == "en"
    assert negotiate("sl;q=0, it") == "it"


def test_a_missing_label_falls_back_to_english_and_is_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    empty = gettext.NullTranslations()
    real = i18n.catalogue
    monkeypatch.setattr(i18n, "catalogue", lambda loc: empty if loc == "sl" else real(loc))
    monkeypatch.setattr(i18n, "_LOOKUPS", {})
    missed: list[tuple[str, str]] = []
    words = Labels("sl", "slovenian", lambda loc, kind: missed.append((loc, kind)))
    assert words.term("contract", "beggar") == "Beggar"
    assert words.term("contract", "no_such_contract") == "no such contract"
    assert missed == [("sl", "contract"), ("sl", "contract")]


def test_score_line_items_read_as_ids_and_parameters() -> None:
    assert v.line_key("pagat_ultimo (silent)") == ("pagat_ultimo", {"mode": "silent"})
    assert v.line_key("pagat ultimo (announced)") == ("pagat_ultimo", {"mode": "announced"})
    assert v.line_key("opponents' colour trula (silent)") == (
        "colour_trula",
        {"team": "opponents", "mode": "silent"},
    )
    assert v.line_key("valat against (announced, lost, rekontra)") == (
        "valat",
        {
            "team": "opponents",
            "mode": "announced",
            "outcome": "lost",
            "kontra": "rekontra",
            "multiplier": "4",
        },
    )
    assert v.line_key("declared by seat 2: grande x5") == (
        "combination",
        {"source": "declared", "seat": "2", "combination": "grande", "count": "5"},
    )
    assert v.line_key("opponents' total") == ("opponents_total", {})
    assert v.line_key("difference") == ("difference", {})


def test_calls_and_talon_groups_name_their_cards() -> None:
    """Six-player two-pack tarok calls both kings of a suit; the talon groups show their cards."""
    variant = next(x for x in VARIANTS if x.id == "double_tarok")
    rules = variant.make_rules(6)
    deck = variant.deck(rules)
    rng = random.Random(3)
    seen: dict[str, list[str]] = {}
    for _ in range(20):
        order = list(deck.cards)
        rng.shuffle(order)
        state = variant.deal(rules, order, 0)
        while not state.finished and state.phase not in ("announce", "tricks"):
            for move in variant.legal_moves(state):
                if move.kind in ("call", "talon"):
                    label = render.move_label(
                        Labels("sl", variant.id), variant, deck, state, (), move
                    )
                    seen.setdefault(move.kind, []).append(label)
            state = variant.apply(state, low_bidder(variant, state, rng))
    assert seen["call"] and all(
        x.startswith("Kliči ") and "(modri hrbet) + " in x and x.endswith("(rdeči hrbet)")
        for x in seen["call"]
    )
    assert seen["talon"] and all(x.startswith("Vzemi kupček ") for x in seen["talon"])


def test_catalogues_are_well_formed_and_in_step() -> None:
    """Every catalogue parses cleanly, has its language's plural count, no fuzzy entries, and
    the same message ids (with contexts) as the English one."""
    from babel.messages.pofile import read_po

    plurals = {"en": 2, "sl": 4, "cs": 3, "de": 2, "it": 2, "fr": 2}
    ids: dict[str, set[tuple[str | None, str]]] = {}
    for locale in LOCALES:
        with i18n.po_path(locale).open("rb") as f:
            catalogue = read_po(f, locale=locale)
        assert catalogue.num_plurals == plurals[locale]
        assert [m for m in catalogue if m.id and (m.fuzzy or not m.string)] == []
        assert [problem for problem in catalogue.check()] == []
        ids[locale] = {
            (m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalogue if m.id
        }
    assert all(found == ids["en"] for found in ids.values())
